#!/usr/bin/python3
"""shell-tty.py VMRUN: drive `VMRUN --tty -- 'exec bash -i'` (make shell) on a
pseudo-terminal of 33 rows and 111 columns, as a person at a terminal
would: wait for the guest's prompt, check what the shell sees (its
terminal, TERM, the size, no PAGER=cat, Ctrl-C as its interrupt key),
interrupt a running command with Ctrl-C, and leave with `exit 7`, which
must be vm-run's exit status. Prints what it checked; exit 1 on a failure.
Every wait ends on what the guest prints; the timeouts only end a hung run.
"""
import os, pty, re, select, struct, sys, fcntl, termios

vmrun = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    # the size first: vm-run reads it as it starts
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 33, 111, 0, 0))
    os.environ['TERM'] = 'xterm'
    os.execv(vmrun, [vmrun, '--tty', '--timeout', '600', '--', 'exec bash -i'])
seen = b''


def expect(pattern, limit=60):
    """Read until PATTERN (a regex on bytes) shows; return the match"""
    global seen
    while True:
        m = re.search(pattern, seen)
        if m:
            seen = seen[m.end():]
            return m
        r, _, _ = select.select([fd], [], [], limit)
        if not r:
            sys.exit('FAIL: no %r in %ds; got: %r' % (pattern, limit, seen[-400:]))
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b''
        if not data:
            sys.exit('FAIL: the guest ended before %r; got: %r' % (pattern, seen[-400:]))
        seen += data


def send(line):
    os.write(fd, line)


expect(rb'bash-[0-9.]+# ', 300)
print('ok: the guest shell prompts on this terminal')
send(b'echo "T=$(tty) P=${PAGER-none} TERM=$TERM S=$(stty size) I=$(stty -a | grep -c \'intr = ^C\')"\n')
m = expect(rb'T=(\S+) P=(\S+) TERM=(\S+) S=(\d+ \d+) I=(\d+)')
got = [g.decode() for g in m.groups()]
want = ['/dev/ttyS1', 'none', 'xterm', '33 111', '1']
if got != want:
    sys.exit('FAIL: the shell sees %s, not %s' % (got, want))
print('ok: a terminal (%s), TERM and size from this one, no PAGER, Ctrl-C interrupts' % got[0])
send(b'sh -c \'echo START; exec sleep 300\'\n')
expect(rb'\r?\nSTART')
send(b'\x03')
expect(rb'bash-[0-9.]+# ')
send(b'echo "after=$?"\n')
m = expect(rb'after=(\d+)')
# sleep 300 does not end by itself: the prompt is the interrupt. Its status
# is 130 (SIGINT), but the guest's bash sometimes reports 1 for it, for a
# reason not found yet (a marker printed after the exec, through cat and
# sed, showed the same): any failure status is taken.
if m.group(1) == b'0':
    sys.exit('FAIL: Ctrl-C ended the command with status 0')
print('ok: Ctrl-C interrupted the running command (status %s), the shell went on'
      % m.group(1).decode())
send(b'exit 7\n')
while True:
    try:
        if not os.read(fd, 4096):
            break
    except OSError:
        break
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
if code != 7:
    sys.exit('FAIL: vm-run exited %d after "exit 7"' % code)
print('ok: exit 7 ends the guest, and vm-run exits 7')
