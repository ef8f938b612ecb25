#include "PositionIdsCheckCommand.h"

#include "CheckCommonOptions.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "check/positions/BatchIdsStructure.h"
#include "check/positions/MropeIdsStructure.h"
#include "check/positions/PositionIdsCheck.h"
#include "check/positions/RowPrompts.h"
#include "check/rope/ApplyCheck.h"
#include "core/CountWords.h"
#include "core/Description.h"
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/positions/BatchIds.h"
#include "io/PositionIdsFile.h"
#include "io/Preset.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc::PositionIdsCheckCommand {

namespace {

const QString kKey = u"position-ids"_s;
const QString kRowsNotAtIds = u"rows-not-at-ids"_s;

int failWith(QTextStream &err, int code, const QString &message)
{
    err << "posenc check: " << message << '\n';
    return code;
}

// The flag whose rows a batch's problem concerns: the one that gave the rows, else the prefill or
// the row's length.
QString batchFlag(const BatchParams &batch)
{
    if (!batch.lengths.isEmpty())
        return u"--batch"_s;
    if (!batch.packed.isEmpty())
        return u"--packed"_s;
    if (batch.mask)
        return u"--attention-mask"_s;
    if (batch.documents)
        return u"--document-ids"_s;
    return batch.cache > 0 ? u"--cache"_s : u"--max-len"_s;
}

int exitCode(PositionIdsCheck::Verdict verdict)
{
    switch (verdict) {
    case PositionIdsCheck::Verdict::Correct:
        return ExitDone;
    case PositionIdsCheck::Verdict::Mistake:
        return 1;
    case PositionIdsCheck::Verdict::Unknown:
        break;
    }
    return 7;
}

QString jsonList(const QStringList &items)
{
    QStringList quoted;
    for (const QString &item : items)
        quoted.append(Description::jsonString(item));
    return u"["_s + quoted.join(u", "_s) + u"]"_s;
}

QString json(const PositionIdsCheck::Report &r)
{
    QStringList members {JsonOutput::head(u"check-position-ids"_s),
                         u"\"verdict\": %1"_s.arg(Description::jsonString(PositionIdsCheck::verdictWord(r.verdict))),
                         u"\"mistakes\": %1"_s.arg(jsonList(r.mistakes)),
                         u"\"reference\": %1"_s.arg(Description::jsonString(r.reference)),
                         u"\"detail\": %1"_s.arg(Description::jsonString(r.detail)),
                         u"\"rows\": %1"_s.arg(r.rows),
                         u"\"columns\": %1"_s.arg(r.columns),
                         u"\"axes\": %1"_s.arg(r.axes),
                         u"\"real_tokens\": %1"_s.arg(r.realTokens)};
    if (const auto &d = r.firstDifference)
        members.append(u"\"first_difference\": {\"row\": %1, \"column\": %2, \"axis\": %3, \"given\": %4, "
                       "\"reference\": %5}"_s.arg(d->row)
                           .arg(d->column)
                           .arg(d->axis)
                           .arg(d->given)
                           .arg(d->reference));
    else
        members.append(u"\"first_difference\": null"_s);
    members.append(u"\"notes\": %1"_s.arg(jsonList(r.notes)));
    return u"{"_s + members.join(u", "_s) + u"}\n"_s;
}

QString text(const PositionIdsCheck::Report &r)
{
    QStringList lines {
        u"verdict: %1%2"_s.arg(PositionIdsCheck::verdictWord(r.verdict),
                               r.mistakes.isEmpty() ? QString() : u" ("_s + r.mistakes.join(u", "_s) + u")"_s),
        u"batch: %1 of %2 columns, %3 real tokens%4"_s.arg(r.rows == 1 ? u"1 row"_s : u"%1 rows"_s.arg(r.rows))
            .arg(r.columns)
            .arg(r.realTokens)
            .arg(r.axes == 3 ? u", three ids each (t, h, w)"_s : QString()),
        u"reference: %1"_s.arg(r.reference), r.detail};
    if (const auto &d = r.firstDifference)
        lines.append(
            u"first difference: row %1, column %2%3: %4, the reference %5"_s.arg(d->row)
                .arg(d->column)
                .arg(r.axes == 3 ? u" (%1)"_s.arg(QStringList {u"t"_s, u"h"_s, u"w"_s}.value(d->axis)) : QString())
                .arg(d->given)
                .arg(d->reference));
    for (const QString &note : r.notes)
        lines.append(u"note: "_s + note);
    return lines.join(u'\n') + u'\n';
}

// Whether nothing given says how the ids were made: no prompt, encoding, model or batch flag.
bool undeclared(const QStringList &declared)
{
    for (const QString &key : {u"prompt"_s, u"preset"_s, u"encoding"_s, u"config"_s, u"batch"_s, u"packed"_s,
                               u"attention-mask"_s, u"document-ids"_s, u"cache"_s})
        if (declared.contains(key))
            return false;
    return true;
}

// [3, B, L] or [3, L] ids with neither a prompt, an encoding nor a batch's flag: M-RoPE's, whose
// prompt only the ids themselves give (--encoding mrope alone keeps its default prompt).
bool threeAxesAlone(const std::vector<std::int64_t> &shape, const QStringList &declared)
{
    const bool three = (shape.size() == 3 && shape[0] == 3) || (shape.size() == 2 && shape[0] == 3);
    return three && shape.back() > 0 && undeclared(declared);
}

// A batch's [B, L] ids, B > 1, with no flag that declares the batch: read against generation's
// padding fill (BatchIdsStructure), not refused as not one row's.
bool rowsAlone(const std::vector<std::int64_t> &shape, const QStringList &declared)
{
    return shape.size() == 2 && shape[0] > 1 && shape[1] > 0 && undeclared(declared);
}

// [3, B, L] ids with a batch's flag (--batch, --attention-mask, --packed, --document-ids, --cache)
// and neither a prompt nor a model: M-RoPE's ids of text rows (every real token t = h = w), checked
// against get_rope_index's for text with that batch (r28a's finding 3: they were refused).
bool threeAxesWithBatch(const std::vector<std::int64_t> &shape, const QStringList &declared)
{
    if (shape.size() != 3 || shape[0] != 3 || shape.back() <= 0 || undeclared(declared))
        return false;
    for (const QString &key : {u"prompt"_s, u"preset"_s, u"encoding"_s, u"config"_s})
        if (declared.contains(key))
            return false;
    return true;
}

// The first column whose t, h and w differ, "row 1, column 7 (t 5, h 6, w 7)", or nothing: ids of
// text alone where there is none.
std::optional<QString> visionColumn(const RowMatrixXf &ids, std::int64_t rows)
{
    for (std::int64_t b = 0; b < rows; ++b)
        for (std::int64_t c = 0; c < ids.cols(); ++c) {
            const float t = ids(b, c), h = ids(rows + b, c), w = ids(2 * rows + b, c);
            if (t != h || h != w)
                return u"row %1, column %2 (t %3, h %4, w %5)"_s.arg(b).arg(c).arg(t).arg(h).arg(w);
        }
    return std::nullopt;
}

// The report of text rows' [3, B, L] ids with a batch and no prompt: said so; a padded batch's
// `correct` is `unknown`, since 1-D positions over image tokens read the same (a pack's documents
// are text by the collator's making).
void textRowsRead(PositionIdsCheck::Report &report, const BatchParams &batch)
{
    report.notes.prepend(u"no --prompt: every real token reads as text (t = h = w), compared with get_rope_index's "
                         "ids of text rows for the batch declared"_s);
    if (report.verdict != PositionIdsCheck::Verdict::Correct || !batch.packed.isEmpty() || batch.documents)
        return;
    report.verdict = PositionIdsCheck::Verdict::Unknown;
    report.detail += u"; the rows' content is not declared: 1-D positions laid over image or video tokens "
                     "(mrope-1d-positions, linkedin/Liger-Kernel#276) read the same, so --prompt text:N declares "
                     "text (correct) and --prompt with the rows' images names the mistake"_s;
}

// [3, B, L] ids checked row by row, each against its own prompt of `prompts` ('P0;P1;…').
int checkRows(const QString &prompts, const Params &params, const PositionIdsFile::Ids &ids, std::int64_t start,
              const MropeIdsRules::Declared &declared, bool asJson, QTextStream &out, QTextStream &err)
{
    if (ids.shape.size() != 3 || ids.shape[0] != 3)
        return failWith(err, ExitUsage,
                        u"--prompt with one prompt a row ('P0;P1;…') takes M-RoPE's [3, B, L] ids, a row each"_s);
    const std::int64_t rows = ids.shape[1];
    const auto each = RowPrompts::split(prompts, rows);
    if (const auto *problem = std::get_if<QString>(&each))
        return failWith(err, ExitUsage, *problem);
    if (const auto problem = RowPrompts::batchProblem(params, rows))
        return failWith(err, ExitUsage, *problem);
    std::vector<PositionIdsCheck::Report> reports;
    for (std::int64_t b = 0; b < rows; ++b) {
        const Params row = RowPrompts::rowParams(params, b, std::get<QStringList>(each).value(b));
        if (const auto invalid = row.validate(); !invalid.isEmpty())
            return failWith(
                err, ExitUsage,
                u"--prompt: row %1's prompt: %2"_s.arg(b).arg(ParamOptions::flagText(invalid.constFirst())));
        const Engine engine(row);
        if (const auto &problem = engine.source<BatchIds>().problem())
            return failWith(err, ExitUsage, u"row %1: %2: %3"_s.arg(b).arg(batchFlag(row.batch), *problem));
        reports.push_back(PositionIdsCheck::check(row, RowPrompts::rowIds(ids.values, rows, b), start, declared));
    }
    const PositionIdsCheck::Report report = RowPrompts::combine(reports);
    out << (asJson ? json(report) : text(report));
    return exitCode(report.verdict);
}

// A [3, L] array read both ways: M-RoPE's one row (t, h, w), else a batch of three rows of one id
// each where that reading is correct and M-RoPE's is not (r28a: a [3, L] batch of three text rows
// read as an M-RoPE row).
PositionIdsCheck::Report threeRowsOrAxes(const RowMatrixXf &ids)
{
    PositionIdsCheck::Report asAxes = MropeIdsStructure::read(ids, 1);
    if (asAxes.verdict == PositionIdsCheck::Verdict::Correct)
        return asAxes;
    PositionIdsCheck::Report asRows = BatchIdsStructure::read(ids);
    if (asRows.verdict != PositionIdsCheck::Verdict::Correct) {
        asAxes.notes.append(
            u"read as a batch's [B, L] = [3, %1] instead (three rows of one id a token): %2"_s.arg(ids.cols())
                .arg(asRows.detail));
        return asAxes;
    }
    asRows.notes.prepend(u"[3, %1] read as a batch's [B, L], three rows of one id a token: as M-RoPE's [3, L] (t, h, "
                         "w of one row) %2"_s.arg(ids.cols())
                             .arg(asAxes.detail));
    return asRows;
}

} // namespace

CommandOption option()
{
    return {
        {kKey},
        u"IDS.npy"_s,
        u"check a batch's position ids, [L], [B, L] or M-RoPE's [3, B, L] (a text pack's also [B, L]; without "
        "--prompt read by their own structure), against "
        "the reference's for the batch the parameters give (--batch, --packed, --attention-mask, --document-ids, "
        "--cache, --prompt): correct, "
        "or the mistake (%1); with a table FILE, the positions of its rows (rows-not-at-ids), an M-RoPE table's [3, L] "
        "t, h, w ids (the prompt they lay out) or a 2-D table's [L, 2] row, column ids (its grid); with --apply X Y, "
        "the positions of a head's rows, [L] or [B, L]"_s.arg(PositionIdsCheck::mistakeNames().join(u", "_s)),
        {},
        true};
}

bool requested(const QStringList &arguments)
{
    return std::any_of(arguments.cbegin(), arguments.cend(),
                       [](const QString &a) { return a == u"--position-ids"_s || a.startsWith(u"--position-ids="_s); });
}

int run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    QList<CommandOption> options = ParamOptions::options();
    options.append(option());
    options.append({{u"json"_s}, {}, u"one JSON object"_s});
    options += CheckCommonOptions::options();
    options.append(CommandOptions::help());
    CommandOptions::add(parser, options);
    // --position-offset N declares the ids' start (RoBERTa's 2), not the learned family's offset:
    // taken out before the parameters are read, which would make the encoding learned.
    QStringList rest;
    std::optional<QString> startText;
    // --prompt 'P0;P1;…': each row's own prompt; the parameters read with the first (RowPrompts).
    std::optional<QString> rowPrompts;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const bool promptFlag = arguments[i] == u"--prompt"_s && i + 1 < arguments.size();
        const QString promptValue = promptFlag        ? arguments[i + 1]
            : arguments[i].startsWith(u"--prompt="_s) ? arguments[i].section(u'=', 1)
                                                      : QString();
        if (promptValue.contains(u';')) {
            rowPrompts = promptValue;
            rest.append(u"--prompt=%1"_s.arg(promptValue.section(u';', 0, 0)));
            i += promptFlag ? 1 : 0;
        } else if (arguments[i] == u"--position-offset"_s && i + 1 < arguments.size())
            startText = arguments[++i];
        else if (arguments[i].startsWith(u"--position-offset="_s))
            startText = arguments[i].section(u'=', 1);
        else
            rest.append(arguments[i]);
    }
    bool startRead = true;
    const std::int64_t start = startText ? startText->toLongLong(&startRead) : 0;
    if (!startRead || start < 0 || start > Params::kMaxLen)
        return failWith(
            err, ExitUsage,
            u"--position-offset: must be an integer in [0, %1], the ids' first position; got %2"_s.arg(Params::kMaxLen)
                .arg(ParamError::quoted(startText.value_or(QString()))));
    if (!parser.parse(rest))
        return failWith(err, ExitUsage, oneLine(parser.errorText()) + u" (see posenc check --help)"_s);
    // A name that is no preset is refused, as the table's check and every command refuse it
    // (ParamOptions), never passed over (held-out set 4, F10).
    if (parser.isSet(u"preset"_s)) {
        const QString name = parser.values(u"preset"_s).constLast();
        if (!Presets::find(name))
            return failWith(
                err, ExitUsage,
                ParamOptions::flagText({u"preset"_s,
                                        u"one of %1 (posenc presets lists them)"_s.arg(Presets::names().join(u", "_s)),
                                        QString(), ParamError::quoted(name)}));
    }
    if (!parser.positionalArguments().isEmpty())
        return failWith(
            err, ExitUsage,
            u"--position-ids: the batch's flags check the ids alone; with a table FILE, the ids give its "
            "rows' positions and take no batch flags; got %1"_s.arg(parser.positionalArguments().join(u' ')));
    if (const auto threads = CheckCommonOptions::threads(parser); std::holds_alternative<QString>(threads))
        return failWith(err, ExitUsage, std::get<QString>(threads));
    // Without --max-len (or a file whose columns give it: --attention-mask, --document-ids), the
    // rows' length is the ids' own: their last dimension, whatever length a preset or config gives.
    QStringList declaredKeys;
    const ParamOptions::Fit idsWidth = [&](Params &p, const ParamOptions::Given &flags) {
        declaredKeys = flags.keys();
        if (parser.isSet(u"max-len"_s) || flags.contains(u"attention-mask"_s) || flags.contains(u"document-ids"_s))
            return;
        const auto ids = PositionIdsFile::read(parser.value(kKey), p.memoryBudget);
        if (ids && !ids->shape.empty())
            p.maxLen = std::clamp<std::int64_t>(ids->shape.back(), 1, Params::kMaxLen);
    };
    // --preset, --config and --session give the reference's parameters (its vision positions, its
    // M-RoPE era, its sections) as they do for a table; the flags override them.
    ParamOptions::Result given = ParamOptions::read(parser, {}, true, idsWidth);
    if (given.exitCode() != ExitDone) {
        for (const ParamError &e : given.errors)
            err << "posenc check: " << ParamOptions::flagText(e) << '\n';
        if (!given.usage.isEmpty())
            err << "posenc check: " << given.usage << '\n';
        if (!given.fileError.isEmpty())
            err << "posenc check: " << given.fileError << '\n';
        if (!given.overBudget.isEmpty())
            err << "posenc check: " << given.overBudget << '\n';
        return given.exitCode();
    }
    const Params &params = given.params;
    const auto ids = PositionIdsFile::read(parser.value(kKey), params.memoryBudget);
    if (!ids)
        return failWith(err, exitCodeOf(ids.error()), u"--position-ids: "_s + ids.error().toString());
    // A preset or a config declares the model, and with it its vision positions and era; the prompt
    // only --prompt (or a session's) declares.
    const bool model = parser.isSet(u"preset"_s) || parser.isSet(u"config"_s);
    const MropeIdsRules::Declared declared {declaredKeys.contains(u"prompt"_s) && (parser.isSet(u"prompt"_s) || !model),
                                            declaredKeys.contains(u"vision-positions"_s) || model,
                                            declaredKeys.contains(u"mrope-era"_s) || model};
    if (rowPrompts)
        return checkRows(*rowPrompts, params, ids.value(), start, declared, parser.isSet(u"json"_s), out, err);
    // M-RoPE's [3, B, L] (or one row's [3, L]) without a prompt or a batch: read by their own
    // structure (held-out set 7, F2: they were refused as not [B, L]).
    if (threeAxesAlone(ids->shape, declaredKeys)) {
        const PositionIdsCheck::Report report = ids->shape.size() == 3
            ? MropeIdsStructure::read(ids->values, ids->shape[1])
            : threeRowsOrAxes(ids->values);
        out << (parser.isSet(u"json"_s) ? json(report) : text(report));
        return exitCode(report.verdict);
    }
    if (rowsAlone(ids->shape, declaredKeys)) {
        const PositionIdsCheck::Report report = BatchIdsStructure::read(ids->values);
        out << (parser.isSet(u"json"_s) ? json(report) : text(report));
        return exitCode(report.verdict);
    }
    // [3, B, L] with a batch's flag and no prompt: text rows' M-RoPE ids, checked against
    // get_rope_index's for text with the batch (a prompt holding images takes --prompt).
    Params textRows = params;
    const bool threeWithBatch = threeAxesWithBatch(ids->shape, declaredKeys);
    if (threeWithBatch) {
        if (const auto vision = visionColumn(ids->values, ids->shape[1]))
            return failWith(err, ExitUsage,
                            u"--position-ids: [3, B, L] ids whose t, h and w differ at %1 hold image or video tokens: "
                            "beside %2, give the prompt (--prompt) they were made for; without a batch's flag they "
                            "are read by their own structure"_s.arg(*vision, batchFlag(params.batch)));
        textRows.encoding = Encoding::Mrope;
        textRows.mrope.prompt = u"text:%1"_s.arg(ids->shape[2]);
    }
    const Params &checked = threeWithBatch ? textRows : params;
    if (const auto problem = PositionIdsCheck::shapeProblem(checked, ids->shape)) {
        QStringList dims;
        for (const std::int64_t n : ids->shape)
            dims.append(QString::number(n));
        return failWith(err, ExitUsage, u"--position-ids: must be %1; got (%2)"_s.arg(*problem, dims.join(u", "_s)));
    }
    // Rows the reference cannot lay out (M-RoPE's rows that end inside an image).
    const Engine engine(checked);
    if (const auto &problem = engine.source<BatchIds>().problem())
        return failWith(err, ExitUsage,
                        u"%1: %2%3"_s.arg(batchFlag(params.batch), *problem,
                                          checked.encoding == Encoding::Mrope && BatchLayout(checked).rows() > 1
                                              ? u" (rows of different prompts: --prompt 'P0;P1;…', one a row)"_s
                                              : QString()));
    PositionIdsCheck::Report report = PositionIdsCheck::check(checked, ids->values, start, declared);
    if (threeWithBatch)
        textRowsRead(report, checked.batch);
    out << (parser.isSet(u"json"_s) ? json(report) : text(report));
    return exitCode(report.verdict);
}

QList<HelpSection> helpSections()
{
    HelpSection section;
    section.heading = u"Position ids (--position-ids)"_s;
    section
        .paragraph(u"posenc check --position-ids IDS.npy checks a batch's position ids against the reference's, for "
                   "the batch the parameters give: --batch left:5,8,3 (or right:), --packed 3,4,2/5,4, "
                   "--attention-mask FILE, --document-ids FILE, --cache N, and M-RoPE's --prompt. The reference is "
                   "transformers' generation (attention_mask.cumsum(-1) - 1, the padding 1; a decode step after the "
                   "prefill the row's real tokens before it), its flattening collator (each document from 0), or "
                   "Qwen-VL's get_rope_index with the mask (a decode step cache_position + rope_deltas). An M-RoPE "
                   "pack of text takes the collator's [B, L] ids, which Qwen2VLTextModel.forward gives t, h and w "
                   "alike, or [3, B, L]. Only real tokens count: no attention reads the padding's ids."_s)
        .paragraph(
            u"It names arange-with-padding (each id its column), positions-not-restarted (a packed row's ids "
            "running on), restarted-without-block-mask (restarted ids beside a 2-D --attention-mask, which "
            "takes the mask's path and crosses documents), cache-offset (the decode steps' ids without the "
            "cache's offset, or M-RoPE's rope_deltas lost), off-by-one, positions-constant (every real token of a "
            "row at one id, text-generation-inference#2714's ones(), or the tokens after a --cache at one id, "
            "omlx#2363's broadcast decode window), and where parts of a batch are each "
            "off by a constant of their own (a prefill shifted, its decode steps by one) each part's id with "
            "the columns it covers. Against a declared --prompt, M-RoPE's classes: second-per-grid (a Qwen2.5-VL "
            "video's t ids at another second_per_grid, or Qwen2-VL's grid index: transformers#41152, "
            "sglang#3674), mrope-temporal-rule (Qwen2.5-VL's time where Qwen2-VL is declared), "
            "mrope-1d-positions (t = h = w = arange over image and video tokens, Liger-Kernel#276), "
            "mrope-text-resume (the text after a block at the token count, not its largest id + 1), "
            "mrope-other-era, mrope-time-truncated, mrope-axes-swapped and mrope-axis-offset (an axis of a "
            "block or of the text off by its own constant); a rule the flags leave at its default "
            "(--vision-positions, --mrope-era) that the ids follow another way is unknown, the flag named. "
            "A text resume one off after a vision block (its largest id + 2) is off-by-one. "
            "Rows of one batch with different prompts take one prompt a row, apart by ';' in the rows' order "
            "(--prompt 'text:4,image:1x4x6;text:8'), each row checked with its share of the batch. "
            "Without --prompt or a batch's flag, [3, B, L] ids are read by their own structure (text runs "
            "t = h = w, vision grids, the text after each): correct with the prompt read, or unknown where "
            "no get_rope_index gives them or where every token reads as text (1-D positions over images "
            "read the same; --prompt text:N declares text); with a batch's flag and no prompt, ids of text "
            "(t = h = w) are checked against get_rope_index's for text rows with that batch (a padded "
            "batch's that agree unknown, a pack's correct), ids with images take --prompt; a [3, L] array "
            "that is no M-RoPE row but a batch's [B, L] is read as three rows; a batch's [B, L] ids (B > 1) are read "
            "against generation's padding "
            "fill (1, 0 or -1 before a row's first token, or after its last): correct where a row shows its "
            "padding so, unknown where every row is arange(L), which --attention-mask alone tells from "
            "arange-with-padding. --position-offset N declares ids that "
            "start at N (RoBERTa's padding_idx + 1 = 2): the reference's + N are correct, the reference's own "
            "the mistake position-offset. Exit 0 correct, 1 a mistake, 7 ids it cannot name (a constant "
            "offset undeclared, such as RoBERTa's, is another model's rule), 2 a shape that is not the "
            "batch's."_s)
        .paragraph(
            u"posenc check TABLE --position-ids IDS.npy reads a table whose row r is at position ids[r], as a "
            "model's forward pass dumps it for a padded or packed batch ([L, d] with ids [L], [B, L, d] with "
            "[B, L]): the table of positions 0 to the largest id, each row the file's first at that position, "
            "is checked as any table, and every other row is compared with its position's row. A row that "
            "differs is the mistake rows-not-at-ids (the table was computed at other positions than the "
            "ids), naming the row, its position and, where one matches, the position whose row it holds. "
            "Every position from 0 to the largest id must have a row. An M-RoPE table's [3, L] (or [3, 1, L]) ids, as "
            "get_rope_index returns them, stand for the prompt they lay out (read from their own structure, "
            "as --prompt writes it), and a 2-D table's [L, 2] (row, column) ids that enumerate an H x W grid "
            "row by row for --grid H,W (in whole m x m merge blocks, as the Qwen-VL vision encoder's rot_pos_emb "
            "lists them, also for --spatial-merge-size m, in any order of the blocks: get_window_index's windows): "
            "the table is checked as declared with that prompt or grid, with the "
            "family declared (--expect mrope, rope-2d or sincos-2d, and its parameters); ids no prompt or "
            "grid gives are refused with the reason."_s)
        .examples({{u"posenc check --position-ids ids.npy --batch left:5,8,3 --max-len 8"_s,
                    u"a left-padded batch's ids: correct, or arange-with-padding"_s},
                   {u"posenc check pe.npy --position-ids ids.npy"_s,
                    u"a packed batch's PE rows at their ids: correct, or rows-not-at-ids"_s},
                   {u"posenc check cos.npy --position-ids thw.npy --expect mrope --preset qwen3-vl-8b"_s,
                    u"an M-RoPE table at get_rope_index's [3, L] ids: correct, or the mistake named"_s},
                   {u"posenc check --position-ids ids.npy --packed 3,4,2 --max-len 9 --attention-mask mask.npy"_s,
                    u"restarted ids beside a 2-D mask: restarted-without-block-mask"_s},
                   {u"posenc check --position-ids ids.npy --batch left:10,8 --prompt 'text:4,image:1x4x6;text:8'"_s,
                    u"M-RoPE ids of two rows, each against its own prompt"_s}});
    return {section};
}

std::variant<RowsAtPositions::Layout, int> readLayout(const QString &path, std::int64_t rows, std::uint64_t budget,
                                                      QTextStream &err)
{
    const auto ids = PositionIdsFile::read(path, budget);
    if (!ids)
        return failWith(err, exitCodeOf(ids.error()), u"--position-ids: "_s + ids.error().toString());
    if (ids->shape.size() > 2)
        return failWith(err, ExitUsage,
                        u"--position-ids: a table's rows take one id each, [L] or [B, L]; M-RoPE's [3, B, L] ids are "
                        "checked alone (posenc check --position-ids IDS.npy --prompt ...)"_s);
    auto laid = RowsAtPositions::layout(ids->values, rows);
    if (auto *problem = std::get_if<QString>(&laid))
        return failWith(err, ExitUsage, *problem);
    return std::get<RowsAtPositions::Layout>(std::move(laid));
}

int compareRows(TableMatch &match, const TableRows &file, const RowsAtPositions::Layout &layout,
                const std::atomic<bool> *cancel, QTextStream &err)
{
    // Without a reference, repeated rows are held to the rounding of the stored values.
    const CellTolerance tolerance = match.reference
        ? match.tolerance
        : cellTolerance(ValueFormat::Float32, file.storedType(), file.textRounding(), 1.0);
    QString error;
    const auto disagreement = RowsAtPositions::compare(file, layout, tolerance, cancel, error);
    if (cancel && cancel->load())
        return failWith(err, ExitInterrupted, u"interrupted"_s);
    if (!error.isEmpty())
        return failWith(err, ExitIo, u"%1: %2"_s.arg(file.name(), error));
    const std::int64_t positions = std::int64_t(layout.firstRow.size());
    if (!disagreement) {
        match.notes.append(
            u"rows read at their --position-ids: %1 at %2, checked by position (row i below is the "
            "file's first row at position %3 + i); every other row equals its position's"_s
                .arg(CountWords::counted(std::int64_t(layout.ids.size()), u"row"_s),
                     CountWords::range(layout.first, layout.first + positions - 1, u"position"_s, {}, u"-"_s))
                .arg(layout.first));
        return 0;
    }
    const RowsAtPositions::Disagreement &d = *disagreement;
    match.verdict = CheckVerdict::Mistake;
    // The table read by position takes each position's first row: where the rows are not at their
    // ids, that table's rows past the first document's length come from later rows (a packed
    // batch's rows at their index: ids 700.. first at rows 1400..), out of order seen from there, the
    // other rows at their own positions: that is this mistake, said as a note. An offset of every
    // row (position-offset) moves the rows at their ids too: a mistake of its own, kept.
    if (match.mistakes.removeAll(ApplyCheck::kPositionsOutOfOrder) > 0)
        match.notes.append(u"the table read by position also reads as %1: its rows are the file's first rows at each "
                           "position, which rows away from their ids move"_s.arg(ApplyCheck::kPositionsOutOfOrder));
    match.mistakes.append(kRowsNotAtIds);
    const QString holds = d.holds ? u"; it is position %1's row"_s.arg(*d.holds) : QString();
    match.diagnosis = u"the rows are not at their --position-ids: row %1, at position %2, differs from row %3 (the "
                      "first at %2) by %4 in column %5%6; %7 of %8 rows disagree with their position's row"_s.arg(d.row)
                          .arg(d.position)
                          .arg(d.firstRow)
                          .arg(NumberText::compact(d.difference, 3))
                          .arg(d.column)
                          .arg(holds)
                          .arg(d.rows)
                          .arg(std::int64_t(layout.ids.size()));
    match.notes.append(u"the table read by position (row p is the file's first row at p) is checked above"_s);
    return 0;
}

} // namespace posenc::PositionIdsCheckCommand
