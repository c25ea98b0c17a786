#!/bin/bash
# The guest half of make bench (harness/bench/run), on one kernel:
#   guest-bench.sh KERNEL(patched|base) REPS MS CALLS [SECTION...]
# SECTION: percall contexts scale tool peers everything (default: percall,
# scale and tool)
# Each per-call and scale run lasts MS milliseconds, or with CALLS > 0 makes
# CALLS calls (MS then only bounds it: a run that reaches MS first fails).
# The clock is VMRUN_CLOCK (harness/vm-run): "icount" when guest time
# counts instructions, "wall" otherwise; every line carries it.
# BENCH_ARCH (arm64, riscv64; unset on x86_64): the module and the PMU
# case's program are those built for that architecture (harness/bench/build).
# Prints one "BENCH section key=value..." line per measurement; the host
# turns them into the table and build/bench/results.json.
set -eu
kernel=$1 reps=$2 ms=$3 calls=$4
shift 4
clock=${VMRUN_CLOCK:-wall}
sections=" ${*:-percall scale tool} "
want() { [[ "$sections" == *" $1 "* ]]; }
bench=/repo/build/bench
sfx=${BENCH_ARCH:+-$BENCH_ARCH}
ko=$bench/mod$sfx-$kernel/fprobe_bench.ko
pmu=$bench/fprobe_bench_pmu$sfx
run=/sys/kernel/debug/fprobe_bench/run
syms=/sys/kernel/debug/fprobe_bench/syms
tr=/sys/kernel/tracing

# Called in the script itself, never in a $(...): it must end the run
die() { echo "BENCH error kernel=$kernel what=\"$*\""; exit 1; }

insmod "$ko" || die "insmod $ko failed"
# vmstat_update runs on each CPU every vm.stat_interval (1 s): under
# icount, where both vCPUs' instructions count, it landed in one loop of
# 20 now and then and added up to 1.3% to it. Once an hour instead.
echo 3600 >/proc/sys/vm/stat_interval || die "cannot set vm.stat_interval"

# one run of CASE; prints the module's result line, fails if the case did
run_case() { # CASE
	echo "$1 $ms $calls" >"$run" && cat "$run"
}

# true if a result line (the module's) made fewer calls than asked for
short() { # LINE
	[ "$calls" -gt 0 ] && [[ "$1" =~ calls=([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt "$calls" ]
}

fprobe_events_remove() {
	local e
	for e in $(sed -nE 's/^f:(fpbench\/[^ ]+) .*/\1/p' "$tr/dynamic_events"); do
		echo "-:$e" >>"$tr/dynamic_events" || die "cannot remove the event $e"
	done
}

fprobe_event() { # on|off SPEC...
	if [ "$1" = on ]; then
		shift
		for s in "$@"; do echo "$s" >>"$tr/dynamic_events" || die "dynamic event '$s' refused"; done
		echo 1 >"$tr/events/fpbench/enable"
	else
		echo 0 >"$tr/events/fpbench/enable"
		fprobe_events_remove
		echo >"$tr/trace"
	fi
}

# fprobe, which 6.12 has only with DYNAMIC_FTRACE_WITH_REGS (not on arm64):
# without it, the cases of fprobe and fprobe events are left out, and said
fprobe=yes
grep -qw register_fprobe /proc/kallsyms || fprobe=none
# A kprobe at the entry of the target, which is an ftrace location: riscv
# has no KPROBES_ON_FTRACE, and refuses it (so kretprobes too)
kprobe=yes
echo "kprobe 1 1" >"$run" 2>/dev/null || kprobe=none
echo "BENCH info kernel=$kernel arch=$(uname -m) release=$(uname -r) cpus=$(nproc) reps=$reps ms=$ms calls=$calls clock=$clock fprobe=$fprobe kprobe=$kprobe"

# 1. The per-call cost, the cases interleaved within each repetition
# The fetch arguments of the fprobe-event-fetch and pmu-fetch cases
# shellcheck disable=SC2016 # trace_probe's $arg1 and $comm, not the shell's
fetch='x=$arg1 comm=$comm'
percall() { # CASE RESULT-LINE: print it as the result of CASE
	echo "BENCH percall kernel=$kernel clock=$clock rep=$r case=$1 ${2#case=* }"
}
want percall &&
for r in $(seq "$reps"); do
	for c in none ftrace fprobe-entry fprobe-exit fprobe-mixed kprobe kretprobe; do
		[ $fprobe = yes ] || [[ $c != fprobe-* ]] || continue
		[ $kprobe = yes ] || [[ $c != k*probe ]] || continue
		out=$(run_case "$c") || die "case $c failed"
		short "$out" && die "case $c reached ${ms} ms before $calls calls: $out"
		percall "$c" "$out"
	done
	[ $fprobe = yes ] || continue
	fprobe_event on 'f:fpbench/target fprobe_bench_target'
	out=$(run_case external) || die "case fprobe-event failed"
	short "$out" && die "case fprobe-event reached ${ms} ms before $calls calls: $out"
	percall fprobe-event "$out"
	fprobe_event off
	fprobe_event on 'f:fpbench/target fprobe_bench_target' 'f:fpbench/target_ret fprobe_bench_target%return'
	out=$(run_case external) || die "case fprobe-event-exit failed"
	short "$out" && die "case fprobe-event-exit reached ${ms} ms before $calls calls: $out"
	percall fprobe-event-exit "$out"
	fprobe_event off
	# An event with fetch arguments: a register and a string, the ones the
	# PMU case below reads, with trace_probe's code in both
	fprobe_event on "f:fpbench/target fprobe_bench_target $fetch"
	out=$(run_case external) || die "case fprobe-event-fetch failed"
	short "$out" && die "case fprobe-event-fetch reached ${ms} ms before $calls calls: $out"
	percall fprobe-event-fetch "$out"
	fprobe_event off
	# The fprobe event and its %return event through perf's tracepoint
	# PMU, a sample of each per call, as perf record -e takes them (the
	# events are perf's, not enabled in tracefs)
	for e in 'f:fpbench/target fprobe_bench_target' \
		 'f:fpbench/target_ret fprobe_bench_target%return'; do
		echo "$e" >>"$tr/dynamic_events" || die "dynamic event '$e' refused"
	done
	rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	echo 100000000 >/proc/sys/kernel/perf_event_max_sample_rate
	out=$("$pmu" --tracepoint fpbench/target,fpbench/target_ret "$ms" "$calls") ||
		die "fprobe_bench_pmu --tracepoint failed"
	echo "$rate" >/proc/sys/kernel/perf_event_max_sample_rate
	fprobe_events_remove
	short "$out" && die "case fprobe-event-exit-perf reached ${ms} ms before $calls calls: $out"
	case "$out" in
	*" lost=0"*) ;;
	*) die "case fprobe-event-exit-perf lost records: $out" ;;
	esac
	percall fprobe-event-exit-perf "$out"
	if [ -r /sys/bus/event_source/devices/fprobe/type ]; then
		# The cost of writing a record per call: above the kernel's
		# sample budget (perf_event_max_sample_rate), the records
		# would be throttled, dropped and cheaper
		rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
		echo 100000000 >/proc/sys/kernel/perf_event_max_sample_rate
		out=$("$pmu" "$ms" "$calls") || die "fprobe_bench_pmu failed"
		short "$out" && die "case pmu reached ${ms} ms before $calls calls: $out"
		case "$out" in
		*" lost=0"*) ;;
		*) die "case pmu lost records, its count is not the write path's: $out" ;;
		esac
		percall pmu "$out"
		# The same with the kernel callchain perf fprobe records
		out=$("$pmu" --callchain "$ms" "$calls") ||
			die "fprobe_bench_pmu --callchain failed"
		echo "$rate" >/proc/sys/kernel/perf_event_max_sample_rate
		short "$out" && die "case pmu-callchain reached ${ms} ms before $calls calls: $out"
		case "$out" in
		*" lost=0"*) ;;
		*) die "case pmu-callchain lost records: $out" ;;
		esac
		percall pmu-callchain "$out"
		# A sample every 100 records: the count of each record, and
		# the sample of one in 100
		out=$("$pmu" --period 100 "$ms" "$calls") ||
			die "fprobe_bench_pmu --period 100 failed"
		short "$out" && die "case pmu-period reached ${ms} ms before $calls calls: $out"
		case "$out" in
		*" lost=0"*) ;;
		*) die "case pmu-period lost records: $out" ;;
		esac
		percall pmu-period "$out"
		# Entry records with the fetch arguments of fprobe-event-fetch
		echo 100000000 >/proc/sys/kernel/perf_event_max_sample_rate
		out=$("$pmu" --fetch "$fetch" "$ms" "$calls") ||
			die "fprobe_bench_pmu --fetch failed"
		echo "$rate" >/proc/sys/kernel/perf_event_max_sample_rate
		short "$out" && die "case pmu-fetch reached ${ms} ms before $calls calls: $out"
		case "$out" in
		*" lost=0"*) ;;
		*) die "case pmu-fetch lost records: $out" ;;
		esac
		percall pmu-fetch "$out"
		out=$("$pmu" --count "$ms" "$calls") ||
			die "fprobe_bench_pmu --count failed"
		short "$out" && die "case pmu-count reached ${ms} ms before $calls calls: $out"
		percall pmu-count "$out"
	fi
done

# 1b. The per-call cost in each context the recursion locks and the trace
# context tell apart: a task, a task with bottom halves disabled, a softirq
# and a hard interrupt (the module's CTX); the cases whose code tests the
# context, the events through the ring buffer
want contexts &&
for r in $(seq "$reps"); do
	for x in task bh softirq hardirq; do
		for c in none fprobe-entry fprobe-exit kprobe fprobe-event fprobe-event-exit; do
			[ $fprobe = yes ] || [[ $c != fprobe-* ]] || continue
			[ $kprobe = yes ] || [ $c != kprobe ] || continue
			case $c in
			fprobe-event) fprobe_event on 'f:fpbench/target fprobe_bench_target' ;;
			fprobe-event-exit)
				fprobe_event on 'f:fpbench/target fprobe_bench_target' \
					'f:fpbench/target_ret fprobe_bench_target%return' ;;
			esac
			m=$c
			[[ $c != fprobe-event* ]] || m=external
			out=$(echo "$m $ms $calls $x" >"$run" && cat "$run") ||
				die "case $c in $x context failed"
			[[ $c != fprobe-event* ]] || fprobe_event off
			short "$out" && die "case $c in $x context reached ${ms} ms before $calls calls: $out"
			echo "BENCH contexts kernel=$kernel clock=$clock rep=$r case=$c ${out#case=* }"
		done
	done
done

# 2. Scalability: the target's per-call cost with N functions in the fprobe,
# and the time to register and unregister them. The other functions: every
# k-th name of available_filter_functions that is unique, in the kernel
# proper, and not the target.
names=/tmp/bench-names
grep -v '\[' "$tr/available_filter_functions" | sort | uniq -u |
	grep -vx fprobe_bench_target >"$names"
total=$(wc -l <"$names")
echo "BENCH info kernel=$kernel traceable=$total"
[ $fprobe = yes ] && want scale &&
for n in 1 1000 10000; do
	[ "$n" -le "$total" ] || die "only $total traceable functions"
	awk -v n=$((n - 1)) -v t="$total" 'n > 0 && (NR - 1) % int(t / n) == 0 && c < n { print; c++ }' \
		"$names" >"$syms"
	[ "$(cat "$syms")" -eq $((n - 1)) ] || die "syms holds $(cat "$syms") names, not $((n - 1))"
	for r in $(seq "$reps"); do
		out=$(run_case scale) || die "scale $n failed"
		short "$out" && die "scale $n reached ${ms} ms before $calls calls: $out"
		echo "BENCH scale kernel=$kernel clock=$clock rep=$r n=$n $out"
	done
done
: >"$syms"
[ $fprobe = yes ] && want scale &&
for r in $(seq "$reps"); do
	out=$(run_case scale-all) || die "scale-all failed"
	short "$out" && die "scale-all reached ${ms} ms before $calls calls: $out"
	echo "BENCH scale kernel=$kernel clock=$clock rep=$r n=all $out"
done
rmmod fprobe_bench

# The tool's setup of every traceable function (the patched kernel's
# fprobe PMU): perf fprobe record -a '*' around a command that does
# nothing, start to end (the probes set up, true recorded, the probes
# removed) in guest time: a bound on the setup alone
now() { echo "${EPOCHREALTIME/./}"; }	# microseconds
if [ "$kernel" = patched ] && want scale && [ -r /sys/bus/event_source/devices/fprobe/type ] &&
	command -v perf >/dev/null; then
	for r in $(seq "$reps"); do
		t0=$(now)
		perf fprobe record -a '*' -o /tmp/star.data -- true 2>/tmp/star.err ||
			{ tail -5 /tmp/star.err; die "perf fprobe record -a '*' failed"; }
		t1=$(now)
		# "perf fprobe: using the fprobe PMU", then
		# "perf fprobe: attached N functions[ (M addresses...)], skipped ..."
		grep -q 'using the fprobe PMU' /tmp/star.err ||
			{ cat /tmp/star.err; die "perf fprobe -a '*' did not use the PMU"; }
		funcs=$(sed -n 's/^perf fprobe: attached \([0-9]*\) functions*[ ,].*/\1/p' /tmp/star.err)
		[ -n "$funcs" ] || { cat /tmp/star.err; die "perf fprobe -a '*' said no count"; }
		echo "BENCH setup kernel=$kernel clock=$clock rep=$r tool=perf-fprobe-all" \
			"funcs=$funcs ns=$(((t1 - t0) * 1000))"
	done
	rm -f /tmp/star.data
fi

stats() { # FILE TYPE: the number of TYPE events in a perf.data
	perf report -i "$1" --stats 2>/dev/null |
		awk -v t="$2" '$1 == t && $2 == "events:" { print $3; f = 1; exit } END { if (!f) print 0 }'
}
# The records a recording lost: perf fprobe's own count (lost in the ring
# buffer or missed by the fprobe, PERF_RECORD_LOST and _LOST_SAMPLES), and
# for perf record the number of PERF_RECORD_LOST{,_SAMPLES} it holds
# (the number alone: the report's line goes on with an explanation)
fprobe_lost() { perf fprobe report -i "$1" 2>/dev/null | sed -n 's/^# lost records: \([0-9]*\).*/\1/p'; }
record_lost() { echo $(($(stats "$1" LOST) + $(stats "$1" LOST_SAMPLES))); }
# exact_count SECTION LOAD ARGS...: perf fprobe -b ARGS at the default
# sample rate, the calls it counted in the kernel and those it did not
exact_count() {
	local section=$1 load=$2 rate
	shift 2
	rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	echo "$default_rate" >/proc/sys/kernel/perf_event_max_sample_rate
	perf fprobe -b --tree --csv "$@" >/tmp/exact.out 2>/tmp/exact.err ||
		{ tail -5 /tmp/exact.err; die "perf fprobe -b $* failed"; }
	echo "$rate" >/proc/sys/kernel/perf_event_max_sample_rate
	echo "BENCH exact kernel=$kernel part=$section load=$load" \
		"counted=$(sed -n 's/^perf fprobe: \([0-9]*\) calls, each counted.*/\1/p' /tmp/exact.err)" \
		"uncounted=$(sed -n 's/^# calls not counted: \([0-9]*\).*/\1/p' /tmp/exact.out)"
}
default_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)

# 6. Tracing everything (patched kernel): perf fprobe record -A -a '*'
# --duration 2 at the default buffer size, every record kept by the kernel
# (no throttling, as in 5.), on the guest as it is (load=idle: its own
# daemons and timers) and while dd bs=1 keeps CPU 1 busy (load=dd): the
# records kept and those lost, which perf fprobe counts. At most three
# repetitions of each.
if [ "$kernel" = patched ] && want everything; then
	echo 100000000 >/proc/sys/kernel/perf_event_max_sample_rate ||
		die "cannot raise kernel.perf_event_max_sample_rate"
	for r in $(seq "$((reps < 3 ? reps : 3))"); do
		for load in idle dd; do
			ddpid=
			if [ $load = dd ]; then
				taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=1000000000 \
					2>/dev/null &
				ddpid=$!
			fi
			perf fprobe record -A -a '*' --duration 2 -o /tmp/all.data >/dev/null \
				2>/tmp/all.err || { [ -z "$ddpid" ] || kill $ddpid; tail -5 /tmp/all.err
				die "perf fprobe record -A -a '*' failed"; }
			# the same, counted in the kernel: every call, or said
			exact_count everything $load -A -a '*' --duration 2 ||
				{ [ -z "$ddpid" ] || kill $ddpid; exit 1; }
			if [ -n "$ddpid" ]; then
				kill $ddpid
				wait $ddpid 2>/dev/null || true
			fi
			echo "BENCH everything kernel=$kernel clock=$clock rep=$r load=$load" \
				"samples=$(stats /tmp/all.data SAMPLE) lost=$(fprobe_lost /tmp/all.data)"
			rm -f /tmp/all.data
		done
	done
fi

# 5. The peers (patched kernel, under icount): what each tool a user would
# pick to see the latency of vfs_read adds to a call of dd bs=1 while it
# watches every call, all on CPU 0 (the tool started there and left to
# attach, then the workload there): (guest time with the tool - without)
# over the calls, from two workload sizes. At most three repetitions.
if [ "$kernel" = patched ] && want peers; then
	bt_dir=$bench/bpftrace
	[ -x "$bt_dir/bpftrace" ] || die "no $bt_dir/bpftrace: harness/bench/run copies it there"
	# its libraries are Debian's, copied beside it: the initramfs has none
	bt=("$bt_dir/lib/ld-linux-x86-64.so.2" --library-path "$bt_dir/lib" "$bt_dir/bpftrace")
	lat='@s[tid] = nsecs; }'
	bt_kfunc="kfunc:vfs_read { $lat kretfunc:vfs_read /@s[tid]/"
	bt_kprobe="kprobe:vfs_read { $lat kretprobe:vfs_read /@s[tid]/"
	plain='{ @h = hist(nsecs - @s[tid]); delete(@s[tid]); }'
	kstack='{ @h[kstack] = hist(nsecs - @s[tid]); delete(@s[tid]); }'
	peer_dd() { # COUNT: the guest ns of dd on CPU 0
		local t0 t1
		t0=$(now)
		taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count="$1" 2>/dev/null
		t1=$(now)
		echo $(((t1 - t0) * 1000))
	}
	peer() { # NAME READY-FILE READY-PATTERN CMD...
		local name=$1 file=$2 pat=$3 pid='' c lost
		shift 3
		rm -f /tmp/peer.out /tmp/peer.err /tmp/peer.data
		if [ "$name" != none ]; then
			taskset -c 0 "$@" >/tmp/peer.out 2>/tmp/peer.err &
			pid=$!
			for _ in $(seq 1200); do
				grep -q "$pat" "$file" 2>/dev/null && break
				kill -0 $pid 2>/dev/null || break
				sleep 0.5
			done
			grep -q "$pat" "$file" 2>/dev/null ||
				{ kill -INT $pid 2>/dev/null || true; tail -5 /tmp/peer.err; die "$name did not start"; }
			sleep 1
		fi
		for c in 20000 120000; do
			echo "BENCH peers kernel=$kernel clock=$clock rep=$r tool=$name calls=$c ns=$(peer_dd $c)"
		done
		[ -n "$pid" ] || return 0
		kill -INT $pid
		wait $pid || true
		lost=$(sed -n 's/.* \([0-9]*\) records LOST.*/\1/p' /tmp/peer.err)
		# perf fprobe -b: the calls it counted, and those the kernel did not
		c=$(sed -n 's/^perf fprobe: \([0-9]*\) calls, each counted in the kernel.*/\1/p' \
			/tmp/peer.err)
		if [ -n "$c" ]; then
			lost=$(sed -n 's/^# calls not counted: \([0-9]*\).*/\1/p' /tmp/peer.out)
			echo "BENCH peercount kernel=$kernel rep=$r tool=$name counted=$c"
		fi
		echo "BENCH peerlost kernel=$kernel rep=$r tool=$name lost=${lost:-0}"
	}
	rate_file=/proc/sys/kernel/perf_event_max_sample_rate
	default_rate=$(cat $rate_file)
	fp="perf fprobe record -A -a vfs_read -o /tmp/peer.data"
	for r in $(seq "$((reps < 3 ? reps : 3))"); do
		# perf fprobe -b counts every call at the default sample rate
		echo "$default_rate" >$rate_file
		peer none - -
		peer perf-fprobe-b /tmp/peer.err counting perf fprobe -b -A -a vfs_read
		peer perf-fprobe-b-none /tmp/peer.err counting \
			perf fprobe -b -A --call-graph none --hist -a vfs_read
		# every call recorded, none throttled: as the other tools see them
		echo 100000000 >$rate_file || die "cannot raise kernel.perf_event_max_sample_rate"
		# shellcheck disable=SC2086 # $fp is split into its words
		peer perf-fprobe /tmp/peer.err attached $fp
		# shellcheck disable=SC2086
		peer perf-fprobe-none /tmp/peer.err attached $fp --call-graph none
		# shellcheck disable=SC2086
		peer perf-fprobe-tracefs /tmp/peer.err attached $fp --tracefs
		peer perf-ftrace-latency "$tr/current_tracer" function_graph \
			perf ftrace latency -a -T vfs_read
		peer bpftrace-kfunc /tmp/peer.out ready \
			"${bt[@]}" -B line -e "BEGIN { printf(\"ready\\n\"); } $bt_kfunc $plain"
		peer bpftrace-kfunc-kstack /tmp/peer.out ready \
			"${bt[@]}" -B line -e "BEGIN { printf(\"ready\\n\"); } $bt_kfunc $kstack"
		peer bpftrace-kprobe /tmp/peer.out ready \
			"${bt[@]}" -B line -e "BEGIN { printf(\"ready\\n\"); } $bt_kprobe $plain"
		peer bpftrace-kprobe-kstack /tmp/peer.out ready \
			"${bt[@]}" -B line -e "BEGIN { printf(\"ready\\n\"); } $bt_kprobe $kstack"
	done
	rm -f /tmp/peer.data
fi

# 3. The tool (patched kernel): a syscall-heavy workload (dd reading
# /dev/zero a byte at a time: one vfs_read per byte) alone, under perf
# fprobe record, under perf record on fprobe events (entry and exit) and
# under perf ftrace (function_graph on the same function), all on
# vfs_read, at two sizes: the difference gives the cost per call without
# the tools' start-up.
if [ "$kernel" != patched ] || ! want tool; then
	echo "BENCH done kernel=$kernel"
	exit 0
fi
tool_run() { # NAME COUNT CMD...: time one run, print it
	local name=$1 count=$2 t0 t1
	shift 2
	t0=$(now)
	"$@" >/dev/null 2>/tmp/tool.err || { tail -5 /tmp/tool.err; die "tool $name failed"; }
	t1=$(now)
	echo "BENCH tool kernel=$kernel clock=$clock rep=$r tool=$name calls=$count ns=$(((t1 - t0) * 1000))"
}
echo "f:fpbench/vfs_read vfs_read" >>"$tr/dynamic_events"
echo "f:fpbench/vfs_read_ret vfs_read%return" >>"$tr/dynamic_events"
dd="dd if=/dev/zero of=/dev/null bs=1"
for r in $(seq "$reps"); do
	for count in 20000 100000; do
		tool_run none $count $dd count=$count
		tool_run perf-fprobe $count perf fprobe record -a vfs_read -o /tmp/fprobe.data -- \
			$dd count=$count
		echo "BENCH records kernel=$kernel rep=$r tool=perf-fprobe calls=$count" \
			"samples=$(stats /tmp/fprobe.data SAMPLE) lost=$(fprobe_lost /tmp/fprobe.data)"
		# a smaller recording, for the report's memory against the large one
		if [ "$r" = 1 ] && [ "$count" = 20000 ]; then
			mkdir -p "$bench/tool"
			cp /tmp/fprobe.data "$bench/tool/fprobe-$count.data"
		fi
		tool_run perf-record $count perf record -e fpbench:vfs_read -e fpbench:vfs_read_ret \
			-o /tmp/record.data -- $dd count=$count
		echo "BENCH records kernel=$kernel rep=$r tool=perf-record calls=$count" \
			"samples=$(stats /tmp/record.data SAMPLE) lost_events=$(record_lost /tmp/record.data)"
		tool_run perf-ftrace $count perf ftrace -t function_graph -T vfs_read -- $dd count=$count
	done
done
fprobe_events_remove
# A larger recording: losses at the default buffer size, and the input of
# the report speed measured on the host
r=big count=200000
tool_run perf-fprobe $count perf fprobe record -a vfs_read -o /tmp/fprobe.data -- $dd count=$count
echo "BENCH records kernel=$kernel rep=$r tool=perf-fprobe calls=$count" \
	"samples=$(stats /tmp/fprobe.data SAMPLE) lost=$(fprobe_lost /tmp/fprobe.data)"
mkdir -p "$bench/tool"
cp /tmp/fprobe.data "$bench/tool/fprobe.data"
# the same calls, counted in the kernel
exact_count tool big --call-graph none -a vfs_read -- $dd count=$count
echo "BENCH done kernel=$kernel"
