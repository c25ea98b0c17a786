// SPDX-License-Identifier: GPL-2.0
/*
 * The outputs of a perf fprobe report for other tools, written from its
 * call-path tree and its calls (util/fprobe-report.c): folded stacks, an
 * SVG flame graph with its script (util/fprobe-flamegraph.js), Chrome
 * trace event JSON, and the statistics of each function as CSV. Like
 * util/fprobe-report.c, this file depends on libc and the tools/include
 * headers only.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/types.h>

#include "fprobe-call.h"
#include "fprobe-report.h"
#include "fprobe-report-int.h"

/* The children of NODE in name order, for the outputs that merge by name */
static struct fr_node **fr_children_by_name(const struct fr_node *node)
{
	struct fr_node **children;

	children = malloc((node->nr_children ? node->nr_children : 1) * sizeof(*children));
	if (!children)
		return NULL;
	if (node->nr_children)
		memcpy(children, node->children, node->nr_children * sizeof(*children));
	fr_cur_sort = FR_SORT_NAME;
	qsort(children, node->nr_children, sizeof(*children), fr_node_cmp);
	return children;
}

/* Frame names in folded stacks: no ';' (separator), no blanks, no control chars */
static void fr_folded_name(const char *name, FILE *fp)
{
	for (; *name; name++) {
		unsigned char ch = *name;

		if (ch == ';')
			ch = ':';
		else if (ch <= ' ' || ch == 0x7f)
			ch = '_';
		fputc(ch, fp);
	}
}

static int fr_write_folded_node(const struct fr_node *node, const struct fr_node **path,
				int depth, FILE *fp)
{
	struct fr_node **children;
	size_t i;
	int d, err = 0;

	path[depth] = node;
	if (node->flame_self) {
		for (d = 0; d <= depth; d++) {
			if (d)
				fputc(';', fp);
			fr_folded_name(path[d]->key.name, fp);
		}
		fprintf(fp, " %llu\n", (unsigned long long)node->flame_self);
	}
	children = fr_children_by_name(node);
	if (!children)
		return -ENOMEM;
	for (i = 0; i < node->nr_children && !err; i++)
		err = fr_write_folded_node(children[i], path, depth + 1, fp);
	free(children);
	return err;
}

static int fr_node__height(const struct fr_node *node)
{
	int max = 0, h;
	size_t i;

	for (i = 0; i < node->nr_children; i++) {
		h = fr_node__height(node->children[i]);
		if (h > max)
			max = h;
	}
	return max + 1;
}

/**
 * fprobe_report__write_folded - write folded stacks
 * @rep: the finished report
 * @fp: where to
 *
 * One "frame;frame;func value" line per call path, in name order, whose
 * value is the self time in ns of the calls on that path (the time of the
 * calls nested deeper than max_depth included), so that flamegraph.pl,
 * inferno and speedscope weight frames by time. In names, ';' becomes ':'
 * and blanks and control characters '_'.
 *
 * Return: 0, -EINVAL unless @rep was finished, -ENOMEM, -EIO on a write error.
 */
int fprobe_report__write_folded(struct fprobe_report *rep, FILE *fp)
{
	const struct fr_node **path;
	struct fr_node **children;
	size_t i;
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	path = calloc(fr_node__height(&rep->root), sizeof(*path));
	children = fr_children_by_name(&rep->root);
	if (!path || !children) {
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < rep->root.nr_children && !err; i++)
		err = fr_write_folded_node(children[i], path, 0, fp);
	if (!err)
		err = fr_output_status(fp);
out_free:
	free(children);
	free(path);
	return err;
}

/* Writes S escaped for XML text and attributes; only printable ASCII is kept */
static void fr_xml_escape(const char *s, size_t len, FILE *fp)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		unsigned char ch = s[i];

		switch (ch) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		default:
			fputc(ch < ' ' || ch >= 0x7f ? '?' : ch, fp);
			break;
		}
	}
}

/* Writes S as the contents of a JSON string */
static void fr_json_escape(const char *s, FILE *fp)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < ' ' || ch >= 0x7f)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
}

#define SVG_WIDTH	1200
#define SVG_XPAD	10
#define SVG_FRAME_H	16
#define SVG_TOP		64
#define SVG_BOTTOM	40
#define SVG_FONT	12
#define SVG_CHAR_W	(SVG_FONT * 0.59)
#define SVG_MIN_W	0.1

/* Colors from the name, so that a function keeps its color across graphs */
static void fr_svg_color(const struct fr_node *node, char *buf, size_t size)
{
	u64 h = fr_hash(node->key.name, strlen(node->key.name));
	unsigned int a, b, c;

	h ^= h >> 33;		/* spread the bits of close names apart */
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	a = h & 0xff;
	b = (h >> 8) & 0xff;
	c = (h >> 16) & 0xff;

	switch (node->key.kind) {
	case FR_NODE_CALL:	/* warm: traced functions */
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + a % 50, 60 + b % 170, c % 60);
		break;
	case FR_NODE_FRAME:	/* cool: the callchain above them */
		snprintf(buf, size, "rgb(%u,%u,%u)", 120 + a % 50, 160 + b % 40, 200 + c % 50);
		break;
	case FR_NODE_ROOT:
	default:
		snprintf(buf, size, "rgb(190,190,190)");
		break;
	}
}

struct fr_svg {
	FILE		*fp;
	u64		total;		/* ns across the whole width */
	int		height;		/* levels */
	int		img_height;
};

static void fr_svg_label(const char *name, double width, FILE *fp)
{
	size_t len = strlen(name);
	int fit = (int)((width - 6) / SVG_CHAR_W);

	if (fit < 3)
		return;
	if ((size_t)fit >= len) {
		fr_xml_escape(name, len, fp);
		return;
	}
	fr_xml_escape(name, fit - 2, fp);
	fputs("..", fp);
}

static int fr_svg_node(struct fr_svg *svg, const struct fr_node *node, u64 start, int level)
{
	const double avail = SVG_WIDTH - 2 * SVG_XPAD;
	double x = SVG_XPAD + (double)start / svg->total * avail;
	double w = (double)node->flame_total / svg->total * avail;
	int y = svg->img_height - SVG_BOTTOM - (level + 1) * SVG_FRAME_H;
	char total[32], self[32], color[32];
	struct fr_node **children;
	FILE *fp = svg->fp;
	size_t i;
	int err = 0;

	if (w < SVG_MIN_W)
		return 0;
	fr_svg_color(node, color, sizeof(color));
	fprintf(fp, "<g class=\"f\" data-s=\"%llu\" data-w=\"%llu\" data-l=\"%d\" data-n=\"",
		(unsigned long long)start, (unsigned long long)node->flame_total, level);
	fr_xml_escape(node->key.name, SIZE_MAX, fp);
	fprintf(fp, "\"><title>");
	fr_xml_escape(node->key.name, SIZE_MAX, fp);
	if (node->key.kind == FR_NODE_CALL) {
		fprintf(fp, " (%llu calls, total %s, self %s, %.2f%%)",
			(unsigned long long)node->stats.count,
			fr_fmt_ns(total, sizeof(total), node->stats.total),
			fr_fmt_ns(self, sizeof(self), node->stats.self),
			100.0 * node->flame_total / svg->total);
	} else {
		fprintf(fp, " (%llu traced calls, %s, %.2f%%)",
			(unsigned long long)node->stats.count,
			fr_fmt_ns(total, sizeof(total), node->flame_total),
			100.0 * node->flame_total / svg->total);
	}
	fprintf(fp, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"",
		x, y, w, SVG_FRAME_H - 1, color);
	fprintf(fp, " rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%d\">", x + 3, y + SVG_FRAME_H - 4);
	fr_svg_label(node->key.name, w, fp);
	fprintf(fp, "</text></g>\n");

	children = fr_children_by_name(node);
	if (!children)
		return -ENOMEM;
	for (i = 0; i < node->nr_children && !err; i++) {
		err = fr_svg_node(svg, children[i], start, level + 1);
		start = fr_add(start, children[i]->flame_total);
	}
	free(children);
	return err;
}

static const char fr_svg_style[] =
"<style type=\"text/css\">\n"
"\ttext { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
"\t#title { font-size: 17px; text-anchor: middle; }\n"
"\t#subtitle { fill: rgb(90,90,90); text-anchor: middle; }\n"
"\t#search, #unzoom, #matched { cursor: pointer; }\n"
"\t#search, #matched { text-anchor: end; }\n"
"\t.f { cursor: pointer; }\n"
"\t.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
"\t.f text { pointer-events: none; }\n"
"\t.anc { opacity: 0.6; }\n"
"\t.hide { display: none; }\n"
"</style>\n";

/**
 * fprobe_report__write_svg - write a flame graph as a self-contained SVG
 * @rep: the finished report
 * @fp: where to
 * @title: its title, NULL for a default
 *
 * Frames are as wide as the time of the calls below them (the kernel
 * callchain frames in cool colors, the traced functions in warm ones),
 * siblings in name order, the outermost at the bottom. It opens offline:
 * no external script, style sheet or font; inline script for click to
 * zoom, Reset Zoom, and search with the matched share of the time.
 *
 * Return: 0, -EINVAL unless @rep was finished, -ENOMEM, -EIO on a write error.
 */
int fprobe_report__write_svg(struct fprobe_report *rep, FILE *fp, const char *title)
{
	struct fr_svg svg = { .fp = fp, };
	char total[32];
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	if (!title)
		title = "perf fprobe flame graph";
	svg.total = rep->root.flame_total;
	svg.height = fr_node__height(&rep->root);
	svg.img_height = SVG_TOP + svg.height * SVG_FRAME_H + SVG_BOTTOM;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(fp, "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"",
		SVG_WIDTH, svg.img_height, SVG_WIDTH, svg.img_height);
	fprintf(fp, " onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n");
	fputs(fr_svg_style, fp);
	/* The script, and the layout it needs (util/fprobe-flamegraph.js) */
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n\"use strict\";\n");
	fprintf(fp, "var W = %d, XPAD = %d, CW = %.2f;\n", SVG_WIDTH, SVG_XPAD, SVG_CHAR_W);
	fputs(fprobe_flamegraph_js, fp);
	fprintf(fp, "]]></script>\n");
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
		SVG_WIDTH, svg.img_height, "rgb(250,250,245)");
	fprintf(fp, "<text id=\"title\" x=\"%d\" y=\"24\">", SVG_WIDTH / 2);
	fr_xml_escape(title, SIZE_MAX, fp);
	fprintf(fp, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"42\">%zu calls, %s traced;",
		SVG_WIDTH / 2, rep->nr_calls, fr_fmt_ns(total, sizeof(total), svg.total));
	fprintf(fp, " lost records: %llu; calls without exit: %llu; without entry: %llu</text>\n",
		(unsigned long long)rep->lost, (unsigned long long)rep->no_exit,
		(unsigned long long)rep->no_entry);
	fprintf(fp, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n",
		SVG_XPAD);
	fprintf(fp, "<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n",
		SVG_WIDTH - SVG_XPAD);
	fprintf(fp, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		SVG_XPAD, svg.img_height - 14);
	fprintf(fp, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n",
		SVG_WIDTH - SVG_XPAD, svg.img_height - 14);

	if (svg.total)
		err = fr_svg_node(&svg, &rep->root, 0, 0);
	else
		fprintf(fp, "<text x=\"%d\" y=\"%d\">no complete calls</text>\n",
			SVG_XPAD, SVG_TOP + 12);
	fprintf(fp, "</svg>\n");
	if (!err)
		err = fr_output_status(fp);
	return err;
}

/* ns as us with three decimals, exact */
static void fr_json_us(FILE *fp, u64 ns)
{
	fprintf(fp, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

struct fr_chrome {
	FILE		*fp;
	const char	*sep;
};

/* One Chrome trace event */
static int fr_chrome_call(const struct fr_call *c, void *arg)
{
	struct fr_chrome *chrome = arg;
	FILE *fp = chrome->fp;
	u32 a;

	fprintf(fp, "%s\n{\"name\":\"", chrome->sep);
	chrome->sep = ",";
	fr_json_escape(c->fn->name, fp);
	fprintf(fp, "\",\"cat\":\"fprobe\",\"ph\":\"X\",\"ts\":");
	fr_json_us(fp, c->entry);
	fprintf(fp, ",\"dur\":");
	fr_json_us(fp, c->duration);
	fprintf(fp, ",\"pid\":%d,\"tid\":%d,\"args\":{", c->pid, c->tid);
	fprintf(fp, "\"level\":%d,\"ret_ip\":\"0x%llx\",\"retval\":\"0x%llx\"",
		c->level, (unsigned long long)c->ret_ip, (unsigned long long)c->retval);
	for (a = 0; a < c->nargs; a++)
		fprintf(fp, ",\"arg%u\":\"0x%llx\"", a + 1, (unsigned long long)c->args[a]);
	fprintf(fp, "}}");
	return 0;
}

/**
 * fprobe_report__write_chrome - write the calls as Chrome trace events
 * @rep: the finished report
 * @fp: where to
 *
 * One complete ("X") event per call kept by the filters (and above
 * max_depth), by thread and time, with ts and dur in us; args hold the
 * nesting level, return address, return value and arguments (arg1 the
 * first, as perf fprobe -V and --calls number them), as hex strings since
 * JSON numbers lose 64-bit precision. Opens in Perfetto and
 * chrome://tracing.
 *
 * Return: 0, -EINVAL unless @rep was finished, or if it dropped settled
 * calls (see fprobe_report__settle()), -EIO on a write error.
 */
int fprobe_report__write_chrome(struct fprobe_report *rep, FILE *fp)
{
	struct fr_chrome chrome = { .fp = fp, .sep = "", };
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	if (rep->dropped)
		return -EINVAL;
	fprintf(fp, "{\"traceEvents\":[");
	fr_visit_calls(rep, fr_chrome_call, &chrome);
	fprintf(fp, "\n],\"displayTimeUnit\":\"ns\"}\n");
	return fr_output_status(fp);
}

/* A CSV field: quoted, inner quotes doubled, if it holds a comma, quote or line end */
static void fr_csv_field(const char *s, FILE *fp)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/**
 * fprobe_report__write_csv - the statistics of each function, as CSV
 * @rep: the report, finished
 * @fp: where to write
 *
 * A header line, then one line per function in the report's sort order:
 * its complete calls and their total, self, average, max and p99 times in
 * ns, and the calls seen without their exit or their entry (counted, not
 * timed). A name with a comma, a quote or a line end is quoted.
 *
 * Return: 0, or a negative errno.
 */
int fprobe_report__write_csv(struct fprobe_report *rep, FILE *fp)
{
	size_t i;
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	fprintf(fp, "function,count,total_ns,self_ns,avg_ns,max_ns,p99_ns,no_exit,no_entry\n");
	for (i = 0; i < rep->nr_funcs; i++) {
		const struct fr_func *fn = rep->func_list[i];
		const struct fr_stats *st = &fn->stats;

		fr_csv_field(fn->name, fp);
		fprintf(fp, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
			(unsigned long long)st->count, (unsigned long long)st->total,
			(unsigned long long)st->self,
			(unsigned long long)fr_stats__avg(st),
			(unsigned long long)st->max, (unsigned long long)st->p99,
			(unsigned long long)fn->no_exit, (unsigned long long)fn->no_entry);
	}
	return fr_output_status(fp);
}
