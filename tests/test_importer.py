"""test_importer.py - the vmm module's importer process without a GPU: run by
hand it refuses (one line, exit 2); started as the module starts it, it answers
over its socket, closes every descriptor it is handed and ends when told or
when the socket closes. Also: `list --cases` marks the on-request cases of the
pool growth and the VMM sharing."""
import os
import socket
import struct
import subprocess

import pytest

import hmb

IMPORTER = "__vmm-importer"
MAGIC = 0x564D4D53              # bench/vmm/vmm_share.c: SHARE_MAGIC
REQ = "<IiiII4xQ"               # struct share_req: magic, op, device, seed_in, seed_out, size
REQ_ROUND, REQ_QUIT = 1, 2
REPLY_SIZE = 512                # struct share_reply
NO_VMM = "no virtual memory management"


def one_line_refusal(p):
    lines = p.stderr.strip().splitlines()
    return p.returncode == 2 and len(lines) == 1 and "is internal" in lines[0] and \
        p.stdout == ""


def test_importer_by_hand_refuses_with_one_line():
    p = hmb.run(IMPORTER)
    assert one_line_refusal(p), (p.returncode, p.stderr)
    assert "HMB_VMM_IMPORTER" in p.stderr


@pytest.mark.parametrize("value", ["1:{fd}", "x:{fd}", "{pid}", "{pid}:0", "{pid}:99999"])
def test_importer_refuses_an_environment_not_from_its_parent(value):
    """It is handed a socket each time, but pid 1 is not its parent, x no pid,
    fd 0 no socket, 99999 no descriptor at all."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with ours, theirs:
        env = dict(os.environ,
                   HMB_VMM_IMPORTER=value.format(fd=theirs.fileno(), pid=os.getpid()))
        p = hmb.run(IMPORTER, env=env, pass_fds=[theirs.fileno()])
    assert one_line_refusal(p), (value, p.returncode, p.stderr)


def start_importer():
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    env = dict(os.environ, HMB_VMM_IMPORTER=f"{os.getpid()}:{theirs.fileno()}")
    proc = subprocess.Popen([str(hmb.BIN), IMPORTER], env=env, pass_fds=[theirs.fileno()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    theirs.close()
    ours.settimeout(60)
    return ours, proc


def pipe_round(ours, proc):
    """Send a round whose descriptor is a pipe's read end: the reply (b"" if
    none) and the write end. Skips where the build has no VMM (the importer
    refuses at once; waited for, as its socket closes before it is reaped)."""
    r, w = os.pipe()
    socket.send_fds(ours, [struct.pack(REQ, MAGIC, REQ_ROUND, 0, 1, 2, 2 << 20)], [r])
    os.close(r)
    try:
        reply = ours.recv(4096)
    except (socket.timeout, ConnectionError):
        reply = b""
    if not reply and proc.wait(timeout=30) == 2 and NO_VMM in proc.stderr.read():
        os.close(w)
        pytest.skip("this build has no VMM: the importer refuses to start")
    return reply, w


def test_importer_answers_closes_what_it_gets_and_ends_when_told():
    ours, proc = start_importer()
    try:
        # A round whose descriptor is a pipe, not GPU memory: the import fails
        # (no GPU, or not memory), and the answer names the call.
        reply, w = pipe_round(ours, proc)
        assert len(reply) == REPLY_SIZE, reply
        magic, ok = struct.unpack_from("<Ii", reply)
        why = reply[32:].split(b"\0")[0].decode()
        assert magic == MAGIC and ok == 0, (magic, ok, why)
        assert why.startswith("importer: hipMemImportFromShareableHandle"), why
        # The importer closed the read end it got: none is left anywhere.
        with pytest.raises(BrokenPipeError):
            os.write(w, b"x")
        os.close(w)
        fds = f"/proc/{proc.pid}/fd"
        held = [os.readlink(f"{fds}/{d}") for d in os.listdir(fds) if int(d) > 2]
        assert len(held) == 1 and held[0].startswith("socket:"), held  # its socket alone
        ours.send(struct.pack(REQ, MAGIC, REQ_QUIT, 0, 0, 0, 0))
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == "" and proc.stderr.read() == ""
    finally:
        ours.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_importer_closes_every_descriptor_of_a_message():
    """Two descriptors in one round (one too many): it takes the first and closes
    the second at once, so neither is left open; it answers, and holds its socket
    alone."""
    ours, proc = start_importer()
    try:
        pipes = [os.pipe(), os.pipe()]
        socket.send_fds(ours, [struct.pack(REQ, MAGIC, REQ_ROUND, 0, 1, 2, 2 << 20)],
                        [r for r, _ in pipes])
        for r, _ in pipes:
            os.close(r)
        try:
            reply = ours.recv(4096)
        except (socket.timeout, ConnectionError):
            reply = b""
        if not reply and proc.wait(timeout=30) == 2 and NO_VMM in proc.stderr.read():
            pytest.skip("this build has no VMM: the importer refuses to start")
        assert len(reply) == REPLY_SIZE and struct.unpack_from("<Ii", reply) == (MAGIC, 0), reply
        for _, w in pipes:
            with pytest.raises(BrokenPipeError):
                os.write(w, b"x")
            os.close(w)
        fds = f"/proc/{proc.pid}/fd"
        held = [os.readlink(f"{fds}/{d}") for d in os.listdir(fds) if int(d) > 2]
        assert len(held) == 1 and held[0].startswith("socket:"), held  # its socket alone
        ours.send(struct.pack(REQ, MAGIC, REQ_QUIT, 0, 0, 0, 0))
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == "" and proc.stderr.read() == ""
    finally:
        ours.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_importer_ends_when_its_socket_closes():
    """The module gone (its socket closed, nothing said): the importer ends too,
    once it has shown that it runs (it answers a round first)."""
    ours, proc = start_importer()
    try:
        reply, w = pipe_round(ours, proc)
        os.close(w)
        assert len(reply) == REPLY_SIZE and proc.poll() is None, reply
        ours.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_list_cases_marks_growth_and_sharing_on_request():
    lines = [line.split() for line in hmb.run("list", "--cases").stdout.splitlines()]
    marked = {(f[0], f[2]) for f in lines if len(f) == 3 and f[1] == "on-request"}
    plain = {(f[0], f[1]) for f in lines if len(f) == 2}
    for case in ("grow/default-pool", "grow/created-pool"):
        assert ("pool", case) in marked, lines
    for case in ("export", "import", "map-access", "round-trip"):
        assert ("vmm", f"share/posix-fd/{case}") in marked, lines
    # vmm's own grow/* cases are not pool's: they stay in a plain run
    assert ("vmm", "grow/realloc-copy/fixed-step") in plain
