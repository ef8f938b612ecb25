#include "CheckCommand.h"

#include "ConfigCheckCommand.h"
#include "PositionIdsCheckCommand.h"

#include "check/TableCheck.h"
#include "check/TensorShapes.h"

#include <algorithm>

using namespace Qt::StringLiterals;

// posenc check's help page (CheckCommand.h). A terminal shows its usage, what it does, the
// common options, the examples and the verdicts' exit codes; the man page, the user guide and
// posenc help check --all the whole of it: what it finds, the published forms, every option, and
// the checks of a config and of position ids (HelpSection::Shown; docs/ARCHITECTURE.md, Command
// line, "One source for every help text").
namespace posenc {

namespace {

// Each family's tables and what the check finds of them.
QList<HelpItem> tableItems()
{
    QList<HelpItem> items;
    for (const auto &[tables, help] : TableCheck::tableHelp())
        items.append({tables, help});
    return items;
}

// The options most checks need, each spelled as check's option list spells it (its value's name
// with it) and said in a line; the Options section of the whole page has every one in full.
QList<HelpItem> commonOptions()
{
    const std::pair<QString, QString> lines[] = {
        {u"expect"_s, u"the family the table is meant to be (its parameters by their flags, or --preset NAME)"_s},
        {u"preset"_s, u"a published model's values as the reference: posenc presets lists them"_s},
        {u"expect-table"_s, u"the reference implementation's own table, compared cell by cell"_s},
        {u"expect-config"_s, u"the table a model's config.json computes (RoPE, M-RoPE, a layer type's)"_s},
        {u"positions"_s, u"the positions the rows hold, A..B-1, where they do not start at 0"_s},
        {u"apply"_s, u"with X Y: a query or key before RoPE and after, instead of a table"_s},
        {u"config"_s, u"what a model's config.json computes for position, instead of a table"_s},
        {u"position-ids"_s, u"a model's position ids (alone: checked; with a table: its rows' positions)"_s},
        {u"json"_s, u"one JSON object instead of words: the verdict, the family, the mistakes, the worst cell"_s},
    };
    const QList<CommandOption> options = checkOptions();
    QList<HelpItem> items;
    for (const auto &[name, line] : lines) {
        const QString wanted = name; // a lambda captures no structured binding (clang 14)
        const auto found = std::find_if(options.cbegin(), options.cend(),
                                        [&wanted](const CommandOption &o) { return o.names.contains(wanted); });
        if (found != options.cend())
            items.append({found->spelling(), line});
    }
    return items;
}

} // namespace

HelpPage checkHelp()
{
    HelpPage page;
    page.topic = u"check"_s;
    page.usage = {u"posenc check FILE[:TENSOR] [--json] [OPTIONS]"_s,
                  u"posenc check --apply X Y [--json] [--encoding mrope|--config FILE] [RoPE and M-RoPE flags]"_s,
                  u"posenc check --config FILE [--json] [--layer-type TYPE] [--open]"_s,
                  u"posenc check --position-ids IDS.npy [--json] [--batch ...|--packed ...|--attention-mask FILE] "
                  "[--cache N]"_s};
    page.section().paragraph(
        u"Says what a table of positions computes (L x d: a row per position, a column per dimension) and names "
        "the mistake in it. FILE is a .npy file, a .npz file (TENSOR chooses one of its arrays, stored or "
        "compressed), a .safetensors file (TENSOR chooses one of its tensors), or a .csv "
        "file (commas, or spaces; '#' lines skipped, and a header line of column names). Dimensions of size 1 are "
        "dropped: (L, 1, d) and (1, L, d) are L x d tables, and (B, L, 1, d) (Paddle's cos, broadcast over the "
        "heads of (B, L, H, d)) is B tables of L x d, each at its row of --position-ids (B, L) whatever B is. "
        "With --config, what a model's config.json computes for position instead (below); a FILE named *.json is "
        "such a config, checked as with --config FILE."_s);
    page.section(u"What it finds"_s)
        .shownIn(HelpSection::Shown::Whole)
        .paragraph(u"It identifies the table from a few hundred of its rows, then compares every row with the "
                   "correct table, computed by the kernel of posenc table. A correct table is within the rounding of "
                   "its stored dtype of a correct reference (float64 tables are compared at float32's)."_s)
        .items(tableItems())
        .paragraph(
            u"The mistakes it names: %1. A layout or offset declared and not found is a mistake. A table "
            "declared as a family's (--expect) that is the family's table at other parameters names the one "
            "or two parameters that make it so, by their flags, each with both values; one of another shape "
            "that the family's table has at another rotary_dim, d_model, grid or embed_dim names that "
            "parameter (rotary-dim, d-model, grid; a RoPE table whose pairs are laid out otherwise too names "
            "rope-layout with rotary-dim), and any other shape is refused, both shapes said "
            "(exit 2). A declared sinusoid's pairs turning at frequencies of no base are frequencies-differ, "
            "the first pair that differs with both frequencies. A RoPE table whose "
            "angles were formed in half precision is half-precision-angles, with the stages rounded and their "
            "dtype (the exponents 2i/d, rope_theta, the power rope_theta^(2i/d) or the division by it, "
            "inv_freq, the positions, their product; a sinusoid's positions or timesteps) and the first "
            "position past the rounding; undeclared, the base is read from the slow pairs (whose angles the "
            "half format keeps) and said as read. A cache merely held in bf16 or fp16 is correct. A deviation "
            "nothing explains says so (no parameter of the family explains it) and where its cells lie: "
            "which rows (a block, every odd row) and which columns."_s.arg(TableCheck::mistakeIds().join(u", "_s)))
        .paragraph(u"Besides a table, %1. A vector is read as RoPE's inv_freq (the published models' vectors "
                   "correct, a rope_type's formula at other parameters a variant; against --expect rope the "
                   "parameter that differs named) or as ALiBi's slopes, against get_slopes(H) of the ALiBi paper's "
                   "code, non-power-of-two heads included (--heads declares H; n slopes of another count than H "
                   "declared, or key biases [n, 1, L] of n heads: a run of get_slopes(H)'s heads a variant naming "
                   "them, a tensor-parallel rank's share, get_slopes(n) alibi-head-count). Their mistakes: %2. Any "
                   "other shape is refused with this list (exit 2)."_s.arg(TensorShapes::acceptedShapes(),
                                                                     TensorShapes::mistakeIds().join(u", "_s)))
        .paragraph(u"The verdict is correct only when the table equals a named reference within its tolerance: a "
                   "published form of its family (the paper's sinusoid at base 10000 in either layout; fairseq's, "
                   "tensor2tensor's and Whisper's half_dim - 1 sinusoid at base 10000; RoFormer's RoPE at theta 10000 "
                   "and the RoPE of each model preset), or the reference declared. The family's formula at other "
                   "parameters is a variant, naming the nearest published form; a table no formula explains is "
                   "learned, never correct. A table a formula gives in most cells and not in a region is that "
                   "formula's, the region named: one value throughout (cells-overwritten), the formula plus a "
                   "constant (cells-offset), its cells a few rows or columns away (cells-shifted) or negated "
                   "(sign-flipped) is a mistake; "
                   "cells changed otherwise leave it unknown, the formula named. Where two readings fit equally and "
                   "one is a published form (a RoPE sin "
                   "table at theta 10000 is also a sinusoid whose cosines were replaced by sines), the published form "
                   "is the verdict and the other reading a note; where neither is, the verdict is unknown until a "
                   "family's parameter is declared."_s)
        .paragraph(u"A window of positions is a faithful slice, not a mistake: a table that is a family's at positions "
                   "a..b (posenc table --positions 100:164), or a relative map whose queries are the first or the last "
                   "q of its k keys, is correct (or variant) with its window said (positions: 100..163; --json's "
                   "positions), and where more than one window reads, the one read is said with the note that the "
                   "check cannot tell which was meant. --expect FAMILY declares no positions. --positions A:B "
                   "declares them (a relative map's queries; its keys are 0..k-1), as --position-ids, "
                   "--expect-table's rows and --expect-config's model do: rows at another window are then "
                   "position-offset, both windows said."_s);
    QList<HelpItem> forms;
    for (const auto &[family, text] : TableCheck::publishedFormsHelp())
        forms.append({family, text});
    page.section(u"Published forms"_s)
        .shownIn(HelpSection::Shown::Whole)
        .paragraph(u"A table equal to one of these is correct, named; the family's formula at other parameters is a "
                   "variant. Each family's reference code, and its forms by source:"_s)
        .items(forms);
    QList<HelpItem> options;
    for (const CommandOption &option : tableCheckOptions()) {
        if (!option.hidden)
            options.append({option.spelling(), option.help});
    }
    page.section(u"Common options"_s).shownIn(HelpSection::Shown::Terminal).items(commonOptions());
    page.section(u"Options"_s).shownIn(HelpSection::Shown::Whole).items(options);
    page.section(u"Examples"_s)
        .examples({{u"posenc check my_pe.npy"_s, u"what your own PE table computes, and its mistake"_s},
                   {u"posenc check --json model.safetensors:rotary_cos --rope-layout half"_s,
                    u"a RoPE cos table, declared half"_s},
                   {u"posenc check cos.npy --expect rope --preset llama-3-1-8b"_s,
                    u"exactly Llama 3.1's RoPE table: correct, or a mistake and where"_s},
                   {u"posenc check port.npy --expect-table reference_dump.npy"_s,
                    u"a port against the reference implementation's table, cell by cell"_s},
                   {u"posenc check sin.npy --expect-config config.json --layer-type sliding_attention"_s,
                    u"the RoPE sin table the model's config computes for its sliding-window layers"_s},
                   {u"posenc check mrope_cos.npy --expect-config config.json --prompt text:20,image:1x28x28,text:9"_s,
                    u"a Qwen-VL model's M-RoPE table of that prompt against get_rope_index's ids"_s},
                   {u"posenc check --apply q.npy q_rotated.npy"_s,
                    u"a query before and after RoPE: the pairing, frequencies, attention factor and positions"_s},
                   {u"posenc check --apply q.npy q_rotated.npy --partial-rotary-factor 0.25"_s,
                    u"a partial rotary: the rotary_dim turned, against GPT-NeoX's rotary_pct 0.25"_s},
                   {u"posenc check --apply q.npy q_rotated.npy --config Qwen2-VL-7B-Instruct.json --prompt "
                    "'text:5,image:1x4x6,text:3'"_s,
                    u"multimodal RoPE: each row's (t, h, w) ids against get_rope_index's"_s}});
    page.section(u"Exit status"_s)
        .items({{u"0"_s,
                 u"correct: the table equals a named reference within its tolerance (a published form, or the "
                 "reference declared with --expect, --expect-table or --expect-config)"_s},
                {u"1"_s, u"mistake: a named mistake, or cells that deviate from the reference"_s},
                {u"2"_s, u"invalid usage: an option, or a tensor or array that is not there or not a table"_s},
                {u"3"_s, u"a file that cannot be read, or holds NaN (a reference table +inf too): the path, why"_s},
                {u"4"_s, u"over the memory budget: cells and GiB"_s},
                {u"5"_s,
                 u"variant: the family's formula at parameters no published form uses (base 500); the "
                 "nearest published form is named"_s},
                {u"6"_s, u"learned: a table no formula explains, with a learned table's structure"_s},
                {u"7"_s, u"unknown: the check cannot tell what the table is, or two readings fit equally"_s},
                {u"130"_s, u"stopped by Ctrl+C"_s}});
    for (const QList<HelpSection> &more : {configCheckSections(), PositionIdsCheckCommand::helpSections()}) {
        for (HelpSection section : more)
            page.sections.append(section.shownIn(HelpSection::Shown::Whole));
    }
    return page;
}

} // namespace posenc
