# hipmembench.bash - bash completion for hipmembench: commands and modules,
# global and module options, their values, JSON files for compare, show and summary, and case
# names. Everything but the fixed commands is read from the binary being
# completed (`list`, `--help`, `help MODULE`, and `list --cases` where this
# build has it), so the completion follows the binary it completes.

# Module names: the first column of `hipmembench list`.
_hipmembench_modules()
{
	"$1" list 2>/dev/null | awk 'NF { print $1 }'
}

# The options that a help text lists (global: --help; a module's: help MODULE):
# the leading -x/--name words of its indented lines.
_hipmembench_options()
{
	"$@" 2>/dev/null | awk '/^[[:space:]]+-/ {
		for (i = 1; i <= NF && $i ~ /^--?[A-Za-z]/; i++) { sub(/,$/, "", $i); print $i } }'
}

# Case names from `hipmembench list --cases` (nothing where the build lacks it):
# the last column of each line; only module $2's where lines name their module.
_hipmembench_cases()
{
	"$1" list --cases 2>/dev/null | awk -v m="$2" 'NF {
		if (NF > 1 && m != "" && m != "all" && $1 != m) next
		print $NF }'
}

_hipmembench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} command="" word i
	local builtins="list info all help compare show summary"

	command -v "$bin" >/dev/null 2>&1 || bin=hipmembench
	COMPREPLY=()
	# The command is the first word that is not an option or an option's value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		-d | --device | -o | --output | -f | --format | -s | --sizes | -r | --reps | \
			-w | --warmup | --oversubscribe | --threshold | --gpu | --runs) ((i++)) ;;
		-*) ;;
		*) command=$word && break ;;
		esac
	done

	case $prev in
	-o | --output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-f | --format)
		COMPREPLY=($(compgen -W "table json csv markdown html" -- "$cur"))
		return
		;;
	-d | --device | -s | --sizes | -r | --reps | -w | --warmup | --oversubscribe | --threshold | --gpu | --runs)
		return
		;;
	--case | --cases | --only | --skip | --filter)
		COMPREPLY=($(compgen -W "$(_hipmembench_cases "$bin" "$command")" -- "$cur"))
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		local opts
		opts=$(_hipmembench_options "$bin" --help)
		if [[ -n $command && $command != help && $command != compare && $command != show &&
		      $command != summary &&
			$command != list ]]; then
			opts+=" $(_hipmembench_options "$bin" help "$command")"
		fi
		opts=$(printf '%s\n' $opts | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $command in
	"")
		COMPREPLY=($(compgen -W "$builtins $(_hipmembench_modules "$bin")" -- "$cur"))
		;;
	help)
		[[ $prev == help ]] &&
			COMPREPLY=($(compgen -W "$builtins $(_hipmembench_modules "$bin")" -- "$cur"))
		;;
	compare | show | summary)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	esac
}

complete -o filenames -F _hipmembench hipmembench
