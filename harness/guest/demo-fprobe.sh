#!/bin/bash
# Demo (runs in the guest): perf fprobe on vfs_read and ksys_read, which
# calls it, for one dd reading 64 blocks of 512 bytes: the call graph with
# latencies, the calls with their arguments by DWARF type, and a flame
# graph weighted by time written to build/demo/flame.svg.
set -eu
out=/repo/build/demo
mkdir -p "$out"
data=/tmp/fprobe.data

echo "# perf fprobe -V vfs_read"
perf fprobe -V vfs_read
echo
echo "# perf fprobe -a 'vfs_read count' -a ksys_read -o $data --flame=build/demo/flame.svg -- dd if=/dev/zero of=/dev/null bs=512 count=64"
perf fprobe -a 'vfs_read count' -a ksys_read -o "$data" \
	--tree --flame="$out/flame.svg" -- \
	dd if=/dev/zero of=/dev/null bs=512 count=64 2>&1
echo
echo "# perf fprobe report -i $data --hist"
perf fprobe report -i "$data" --hist
echo
echo "# perf fprobe report -i $data --calls (first 8)"
perf fprobe report -i "$data" --calls 2>/dev/null | head -9
echo
echo "# perf report -i $data --stdio --sort sym -g none (the exit records: time per function)"
perf report -i "$data" --stdio --sort sym -g none 2>/dev/null | grep -v '^$' | grep -v '^# *$' | head -30
[ -s "$out/flame.svg" ]
echo
echo "# flame graph: build/demo/flame.svg ($(wc -c <"$out/flame.svg") bytes)"
