# SPDX-License-Identifier: GPL-2.0
"""The two halves of harness/bench/insn-trace.

Under gdb (gdb -batch -x insn-trace.py): attach to QEMU's gdb stub at
$TRACE_REMOTE, let $TRACE_SKIP calls of the function at $TRACE_ADDR go by,
then single-step the next one from its first instruction until it returns
to its caller, writing each instruction's address and text to $TRACE_OUT; kill QEMU.

On the host (python3 insn-trace.py --report KALLSYMS PCS OUT TITLE): name
each address from the guest's /proc/kallsyms, write "address symbol+offset
instruction" lines to OUT, and print the instructions per function.
"""
import bisect
import os
import sys

MAX_STEPS = 200000


def trace():
    import gdb  # pylint: disable=import-outside-toplevel,import-error

    def reg(name):
        return int(gdb.parse_and_eval('$' + name)) & (2**64 - 1)

    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute('set architecture i386:x86-64')
    gdb.execute('target remote ' + os.environ['TRACE_REMOTE'])
    gdb.execute('set scheduler-locking step')
    gdb.execute('hbreak *0x' + os.environ['TRACE_ADDR'])
    skip = int(os.environ['TRACE_SKIP'])
    if skip:
        gdb.execute('ignore 1 %d' % skip)
    gdb.execute('continue')
    if reg('pc') != int(os.environ['TRACE_ADDR'], 16):
        raise gdb.GdbError('stopped at %#x, not at the target' % reg('pc'))
    gdb.execute('delete')
    sp = reg('rsp')
    ret = int(gdb.parse_and_eval('*(unsigned long *)%d' % sp)) & (2**64 - 1)
    def insn():
        text = gdb.execute('x/i $pc', to_string=True)
        return text.split(':', 1)[-1].strip().replace('\t', ' ')

    pcs = [(reg('pc'), insn())]
    while len(pcs) < MAX_STEPS:
        gdb.execute('stepi', to_string=True)
        pc = reg('pc')
        if pc == ret and reg('rsp') == sp + 8:
            break
        pcs.append((pc, insn()))
    else:
        raise gdb.GdbError('no return after %d instructions' % MAX_STEPS)
    with open(os.environ['TRACE_OUT'], 'w') as f:
        f.write(''.join('%x %s\n' % pc for pc in pcs))
    gdb.execute('kill')


def report(kallsyms, pcs_file, out, title):
    syms = []
    with open(kallsyms) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] in ('a', 'A', 'U'):
                continue
            addr = int(parts[0], 16)
            if addr:
                syms.append((addr, parts[2]))
    syms.sort()
    addrs = [a for a, _ in syms]
    with open(pcs_file) as f:
        pcs = [line.rstrip('\n').split(' ', 1) for line in f if line.strip()]
    if not pcs:
        sys.exit('insn-trace: no instructions traced')
    counts, order = {}, []
    with open(out, 'w') as f:
        for pc, text in pcs:
            pc = int(pc, 16)
            i = bisect.bisect_right(addrs, pc) - 1
            name = syms[i][1] if i >= 0 else '?'
            f.write('%x %s+%#x  %s\n' % (pc, name, pc - syms[i][0] if i >= 0 else 0,
                                           text))
            if name not in counts:
                counts[name] = 0
                order.append(name)
            counts[name] += 1
    print('%s: %d instructions from the target\'s entry to its return'
          % (title, len(pcs)))
    for name in order:
        print('  %6d  %s' % (counts[name], name))
    print('  (each instruction: %s)' % out)


if __name__ == '__main__' and len(sys.argv) > 1 and sys.argv[1] == '--report':
    if len(sys.argv) != 6:
        sys.exit('usage: insn-trace.py --report KALLSYMS PCS OUT TITLE')
    report(*sys.argv[2:6])
else:
    trace()
