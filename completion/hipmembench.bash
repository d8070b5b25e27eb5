# hipmembench.bash - bash completion for hipmembench: commands and modules,
# global and module options, their values (formats, case names, files), JSON
# files for compare, show and summary. Everything is read from the binary being
# completed (`hipmembench __complete [COMMAND]`, src/cli/complete.h), so the
# completion follows the binary it completes.

# The line of `__complete` output that describes option $2 (long or short name).
_hipmembench_option()
{
	awk -v o="$2" '$1 == "option" && ($2 == o || $3 == o) { print; exit }' <<<"$1"
}

_hipmembench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} command="" every spec line word i
	local -a fields

	command -v "$bin" >/dev/null 2>&1 || bin=hipmembench
	COMPREPLY=()
	every=$("$bin" __complete 2>/dev/null) || return
	# The command is the first word that is not an option or an option's value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		-*=*) ;;
		-*)
			line=$(_hipmembench_option "$every" "$word")
			read -ra fields <<<"$line"
			[[ -n $line && ${fields[3]} != - ]] && ((i++))
			;;
		*) command=$word && break ;;
		esac
	done
	spec=$every
	if [[ -n $command ]]; then
		spec=$("$bin" __complete "$command" 2>/dev/null) || spec=$every
	fi

	# The value of an option: the values it can take, files for FILE, else nothing.
	if [[ $prev == -* ]]; then
		line=$(_hipmembench_option "$spec" "$prev")
		[[ -n $line ]] || line=$(_hipmembench_option "$every" "$prev")
		read -ra fields <<<"$line"
		if [[ -n $line && ${fields[3]} != - ]]; then
			if ((${#fields[@]} > 4)); then
				COMPREPLY=($(compgen -W "${fields[*]:4}" -- "$cur"))
			elif [[ ${fields[3]} == FILE ]]; then
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(awk '$1 == "option" { print $2; if ($3 != "-") print $3 }' \
			<<<"$spec")" -- "$cur"))
		return
	fi
	local commands
	commands=$(awk '$1 == "command" { print $2 }' <<<"$every")
	if [[ -z $command ]]; then
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		return
	fi
	case $(awk -v c="$command" '$1 == "command" && $2 == c { print $3 }' <<<"$every") in
	command)
		[[ $prev == "$command" ]] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		;;
	documents)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	esac
}

complete -o filenames -F _hipmembench hipmembench
