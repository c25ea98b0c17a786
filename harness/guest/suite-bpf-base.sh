#!/bin/bash
# kernel: base
# The base's BPF kprobe_multi selftests on the base kernel
# (harness/guest/bpf-selftests.sh): what they show the base does, which
# suite-bpf-selftests.sh, run after this one ("# after: bpf-base"), holds the patched kernel to.
bash /repo/harness/guest/bpf-selftests.sh base
