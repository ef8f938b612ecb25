#include "CheckExpect.h"

#include "CheckExpectConfig.h"

#include "ExitCode.h"
#include "ParamOptions.h"

#include "check/CheckDiagnosis.h"
#include "check/FamilyCheck.h"
#include "check/TableAgainstTable.h"
#include "check/TableCheck.h"
#include "check/sincos2d/Sincos2dDetrMap.h"
#include "core/FamilyInference.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamError.h"
#include "core/ParamTable.h"
#include "io/SessionFile.h"
#include "io/TableFile.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::CheckExpect {

namespace {

const QString kExpect = u"expect"_s;
const QString kExpectTable = u"expect-table"_s;
const QString kExpectConfig = u"expect-config"_s;
const QString kLayerType = u"layer-type"_s;
const QString kResizeMethod = u"resize-method"_s;
const QString kMapForm = u"map-form"_s;
// The flags whose values give the table's width; without one, the table's own width is taken.
const QStringList kWidthKeys = {u"d-model"_s, u"head-dim"_s, u"preset"_s, u"session"_s};

// The families with a reference to compare with, by word.
QList<Encoding> referenceFamilies()
{
    QList<Encoding> families;
    for (const FamilySpec &spec : Families::all()) {
        if (const auto &table = FamilyChecks::of(spec.encoding).table; table && table->expect)
            families.append(spec.encoding);
    }
    return families;
}

// The families whose tables have a structure and no formula (the learned table's): --expect names
// one by its word, which is also its verdict's, and identify answers.
QList<Encoding> structureFamilies()
{
    QList<Encoding> families;
    for (const FamilySpec &spec : Families::all()) {
        if (const auto &table = FamilyChecks::of(spec.encoding).table; table && !table->expect)
            families.append(spec.encoding);
    }
    return families;
}

// --expect's words: each family with a reference, each with a structure alone, and each of the
// first's tables' words.
QStringList expectWords()
{
    QStringList words;
    for (const Encoding family : referenceFamilies())
        words.append(Families::word(family));
    for (const Encoding family : structureFamilies())
        words.append(Families::word(family));
    for (const Encoding family : referenceFamilies()) {
        for (const QString &table : FamilyChecks::of(family).table->tables) {
            if (!words.contains(table))
                words.append(table);
        }
    }
    return words;
}

Refusal usage(const QString &line)
{
    return {ExitUsage, {line}};
}

// The family and its tables to try of --expect's word, or nothing.
std::optional<std::pair<Encoding, QStringList>> familyOf(const QString &word)
{
    for (const Encoding family : referenceFamilies()) {
        const QStringList tables = FamilyChecks::of(family).table->tables;
        if (word == Families::word(family))
            return std::pair {family, tables};
        if (tables.contains(word))
            return std::pair {family, QStringList {word}};
    }
    return std::nullopt;
}

// The flags that name one quantity in two families' words: a sinusoid's base b (w_i = b^(-2i/d))
// is a rotary family's rope_theta (theta^(-2i/r)).
const std::pair<QString, QString> kSameQuantity[] = {{u"base"_s, u"rope-theta"_s}};

// ": the base of its frequencies is --rope-theta, a number in (1, 1e15]": the flag of `family`
// that names what another family's `key` names, and its range; empty where none does.
QString counterpartWords(const QString &key, Encoding family)
{
    for (const auto &[a, b] : kSameQuantity) {
        const QString other = key == a ? b : key == b ? a : QString();
        const auto clue = other.isEmpty() ? std::nullopt : FamilyInference::parameterClue(other, u"--"_s + other);
        const ParamSpec *spec = other.isEmpty() ? nullptr : ParamTable::find(other);
        if (clue && spec && spec->allowed && FamilyInference::familiesOf(*clue, Params()).contains(family))
            return u": the base of its frequencies is --%1, %2"_s.arg(other, spec->allowed(Params()));
    }
    return {};
}

// The parameter flags given that only --expect reads.
QStringList expectOnlyFlags(const QCommandLineParser &parser, const QStringList &declarable)
{
    QStringList given;
    for (const CommandOption &option : ParamOptions::options()) {
        const QString key = option.names.constFirst();
        if (!declarable.contains(key) && key != kLayerType && parser.isSet(key))
            given.append(u"--"_s + key);
    }
    return given;
}

// The family's parameters of --preset, --session and the flags; the table's width where none gave it.
std::variant<Expectation, Refusal> familyExpectation(const QCommandLineParser &parser, Encoding family,
                                                     QStringList tables)
{
    if (parser.isSet(u"encoding"_s))
        return usage(u"--encoding: --expect names the family; give one of them"_s);
    const QString word = Families::word(family);
    for (const CommandOption &option : ParamOptions::options()) {
        const QString key = option.names.constFirst();
        const auto clue = FamilyInference::parameterClue(key, u"--"_s + key);
        if (!parser.isSet(key) || !clue)
            continue;
        QStringList owners;
        for (const Encoding owner : FamilyInference::familiesOf(*clue, Params()))
            owners.append(Families::word(owner));
        if (!owners.isEmpty() && !owners.contains(word))
            return usage(u"--%1: %2's parameter; --expect %3 reads %3's%4"_s.arg(key, owners.join(u", "_s), word,
                                                                                 counterpartWords(key, family)));
    }
    ParamOptions::Clues clues {{u"--expect "_s + word, [family](const Params &p) { return p.encoding == family; }}};
    // A head wider than the default d_model is no error where nothing gave d_model: d_model follows
    // the head the flags give (--head-dim 1024), before the parameters are checked.
    const ParamOptions::Fit fit = [](Params &p, const ParamOptions::Given &given) {
        if (given.contains(u"d-model"_s))
            return;
        for (const QString &key : kWidthKeys) {
            const ParamSpec *row = ParamTable::find(key);
            if (!row || !given.contains(key))
                continue;
            const ParamValue value = row->value(p);
            if (const auto *width = std::get_if<std::int64_t>(&value); width && *width > p.dModel)
                p.dModel = std::min(*width, Params::kMaxDModel);
        }
    };
    const ParamOptions::Result read = ParamOptions::read(parser, clues, true, fit);
    if (read.exitCode() != ExitDone)
        return Refusal {read.exitCode(), read.messages()};
    if (read.params.encoding != family)
        return usage(u"--expect %1: %2 gives %3's parameters; give a %1 one"_s.arg(
            word, read.origin, Families::word(read.params.encoding)));
    Expectation e;
    e.kind = Expectation::Kind::Family;
    e.family = family;
    e.params = read.params;
    e.tables = std::move(tables);
    e.widthGiven
        = std::any_of(kWidthKeys.cbegin(), kWidthKeys.cend(), [&](const QString &key) { return parser.isSet(key); });
    e.modelGiven = read.fromOrigin.contains(u"d-model"_s) || parser.isSet(u"d-model"_s);
    e.lengthGiven = parser.isSet(u"max-len"_s);
    e.given = read.fromOrigin;
    // A preset's prompt is its figures' example (resources/presets' notes), not the table's: only
    // --prompt (or a session) declares the prompt a table was made for.
    if (parser.isSet(u"preset"_s))
        e.given->removeAll(u"prompt"_s);
    for (const CommandOption &option : ParamOptions::options()) {
        if (parser.isSet(option.names.constFirst()))
            e.given->append(option.names.constFirst());
    }
    return e;
}

} // namespace

QList<CommandOption> options(const QStringList &shown)
{
    QList<CommandOption> list {
        {{kExpect},
         u"FAMILY"_s,
         u"compare with exactly FAMILY's table at the parameters given (every parameter flag of posenc help "
         "parameters, --preset NAME), rows from position 0: correct or a mistake, never another reading. The "
         "width is the table's unless --d-model, --head-dim or a preset gives it; rope tries the cos and the sin "
         "table unless rope-cos or rope-sin is named. learned: the table must be learned (no formula explains it); "
         "a learned table is never correct; with --position-table FILE (a model's learned weight: [N, d], "
         "[1, N, d]) the table must be its rows from --position-offset (0 unless given: RoBERTa's padding_idx + 1, "
         "a class token's row), compared cell by cell as --expect-table compares, rows read from another offset "
         "named position-offset"_s,
         expectWords()},
        {{kExpectTable},
         u"FILE[:TENSOR]"_s,
         u"compare with another table (or vector: inv_freq, slopes) of the same shape cell by cell, or with the first "
         "rows of a table of more rows (a learned weight a sequence reads; --expect learned --position-table "
         "declares another first row) (a dump of the "
         "reference implementation; a stack such as [H, L, L] biases or [B, L, d] caches slice by slice, with the "
         "reference's stack of that shape, dimensions of 1 aside, or each slice with one reference table): "
         "correct when every cell is within the rounding of the coarser of the two formats; or with a learned n x n "
         "grid (n^2 rows) the table must be resized from as Qwen3-VL's fast_pos_embed_interpolate does "
         "(align_corners; its patches in merge blocks of --spatial-merge-size where given, else as the table lists "
         "them, row-major a variant). A deviating table is named where it is the reference's columns in another order "
         "(columns-swapped), a block of its cells negated (sign-flipped, the rows and columns said) or its 2-D "
         "grid, any H x W its rows factor into, sampled with x and y exchanged (grid-axes-swapped); else the "
         "reference is read as posenc check reads a table, and where it is a family's table at known parameters "
         "the deviation is named against that reading as --expect names it, or, where the table is that reading "
         "too at its own precision (float32 angles against an exact dump), it is correct against the reading, "
         "the files' difference said"_s,
         {},
         true},
        {{kResizeMethod},
         u"METHOD"_s,
         u"with --expect-table or --expect learned --position-table: how the reference's learned grid is resized "
         "to the table (bicubic: F.interpolate's A = -0.75, as ViT's interpolate_pos_encoding and Kimi-VL's MoonViT; "
         "bilinear-align-corners: Qwen3-VL's fast_pos_embed_interpolate; bilinear, bicubic-antialias (timm's), "
         "nearest). A table resized by another method is the mistake resize-method, compared with the declared "
         "method's resize"_s,
         GridResize::resizeWords()},
        {{kExpectConfig},
         u"FILE"_s,
         u"compare with exactly what a model's config.json computes for a layer type (the layer posenc check "
         "--config FILE describes): its family, parameters and width; a Qwen-VL model's M-RoPE takes the prompt "
         "from --prompt (and --second-per-grid, --timestamp-tokens, --mrope-era)"_s,
         {},
         true},
        {{kPeScale},
         u"C"_s,
         u"the amplitude c the sinusoid's values are multiplied by (x-transformers' ScaledSinusoidalEmbedding: "
         "c = dim^-0.5 at init, a learnable scale), a number in (0, 1e6]; --scale is the token embedding's. "
         "Undeclared, a sinusoid times a uniform c is a variant that says c; declared, a table at c is correct and "
         "one at another c (or, with --expect sinusoidal, at any c but 1 when none is declared) is the mistake "
         "scaled, both values said. C typed to k digits declares the amplitude it rounds to (0.0884 declares "
         "128^-0.5 = 0.08838835, the report saying it to the table's precision). A sinusoidal table's only: a "
         "table that reads as another family's (RoPE's, whose amplitude is --attention-factor; a bias) or "
         "--apply refuses it (exit 2), and so does --expect-table, whose reference's values are the amplitude"_s},
        {{kMapForm},
         u"WORD"_s,
         u"with --expect sincos-2d, the published form of a channel-first 2-D map ([C, H, W], [B, C, H, W]) "
         "declared: %1. Its map is correct and another form's the mistakes naming each parameter that differs "
         "(normalisation, temperature, the halves' order, sin and cos in halves); without it any published form "
         "is correct"_s.arg(Sincos2dDetrMap::formWords().join(u", "_s))},
        {{kLayerType},
         u"TYPE"_s,
         u"with --expect-config, the layer type meant (default: the config's only one, or its rotary "
         "full_attention layers)"_s},
    };
    // --layer-type is --expect-config's here (--config FILE is posenc check --config's command).
    for (CommandOption option : ParamOptions::options()) {
        if (shown.contains(option.names.constFirst()) || option.names.constFirst() == kLayerType)
            continue;
        option.hidden = true;
        list.append(option);
    }
    return list;
}

namespace {

const QString kPositionTableFlag = u"--position-table"_s;
const QString kPositionOffsetFlag = u"--position-offset"_s;

// --expect of a structure family with --position-table FILE (and the offsets the family declares,
// --position-offset alone): the file is the reference, the table its rows from the offset. Nothing
// where other flags are given (refused as before); a refusal for an offset that is no whole number.
std::optional<std::variant<Expectation, Refusal>>
positionTableReference(const QCommandLineParser &parser, const QStringList &flags, const QStringList &takes)
{
    for (const QString &flag : flags) {
        if (flag != kPositionTableFlag && !(flag == kPositionOffsetFlag && takes.contains(flag)))
            return std::nullopt;
    }
    Expectation e;
    e.kind = Expectation::Kind::Table;
    e.tablePath = parser.values(kPositionTableFlag.mid(2)).constLast();
    e.referenceFirstRow = 0;
    // --position-offset is a table's declarable key, never among the family flags.
    if (parser.isSet(kPositionOffsetFlag.mid(2))) {
        bool ok = false;
        const qlonglong offset = parser.values(kPositionOffsetFlag.mid(2)).constLast().toLongLong(&ok);
        if (!ok || offset < 0 || offset > Params::kMaxLen)
            return usage(u"--position-offset: a whole number from 0 to %1 (the rows of --position-table before "
                         "position 0)"_s.arg(Params::kMaxLen));
        e.referenceFirstRow = offset;
    }
    return e;
}

} // namespace

std::optional<QString> declareMapForm(const QCommandLineParser &parser, Expectation &expected)
{
    if (!parser.isSet(kMapForm))
        return std::nullopt;
    const QString word = parser.value(kMapForm);
    const QStringList words = Sincos2dDetrMap::formWords();
    if (!words.contains(word) || expected.kind != Expectation::Kind::Family || expected.family != Encoding::Sincos2d)
        return u"--map-form: with --expect sincos-2d, one of %1; got %2"_s.arg(words.join(u", "_s),
                                                                               ParamError::quoted(word));
    expected.mapForm = word;
    return std::nullopt;
}

std::variant<Expectation, Refusal> read(const QCommandLineParser &parser, const QStringList &declarable)
{
    const bool family = parser.isSet(kExpect);
    const bool table = parser.isSet(kExpectTable);
    const bool config = parser.isSet(kExpectConfig);
    const QStringList flags = expectOnlyFlags(parser, declarable);
    if (int(family) + int(table) + int(config) > 1)
        return usage(u"--expect, --expect-table, --expect-config: give one reference"_s);
    if (parser.isSet(kLayerType) && !config)
        return usage(u"--layer-type: names a layer type of --expect-config's config"_s);
    // --resize-method declares how a learned grid is resized to the table: a reference table's.
    std::optional<GridResize::DeclaredResize> resize;
    if (parser.isSet(kResizeMethod)) {
        resize = GridResize::resizeOf(parser.value(kResizeMethod));
        if (!resize)
            return usage(u"--resize-method: one of %1; got %2"_s.arg(GridResize::resizeWords().join(u", "_s),
                                                                     ParamError::quoted(parser.value(kResizeMethod))));
        if (config || (family && !flags.contains(kPositionTableFlag)))
            return usage(u"--resize-method: how a learned grid is resized, with --expect-table or --expect learned "
                         "--position-table"_s);
    }
    if (!family) {
        if (config) {
            // The config gives its family's parameters; the flags may give its input (a prompt).
            QList<std::pair<QString, QString>> inputs;
            for (const QString &flag : flags) {
                const QString key = flag.mid(2);
                const bool isSwitch = ParamTable::find(key)->kind == ParamKind::Switch;
                inputs.append({key, isSwitch ? u"true"_s : parser.values(key).constLast()});
            }
            return configExpectation(parser.value(kExpectConfig), parser.value(kLayerType), inputs);
        }
        // With --expect-table, --spatial-merge-size declares how a learned grid's resize lists its
        // patches (GridResize: merge-blocks-lost only where a merge size is declared).
        const QString merge = u"--spatial-merge-size"_s;
        std::optional<std::int64_t> mergeSize;
        if (table && flags.contains(merge)) {
            bool ok = false;
            const qlonglong m = parser.values(merge.mid(2)).constLast().toLongLong(&ok);
            if (!ok || m < 1 || m > MropeParams::kMaxMergeSize)
                return usage(u"--spatial-merge-size: a whole number from 1 to %1"_s.arg(MropeParams::kMaxMergeSize));
            mergeSize = std::int64_t(m);
        }
        QStringList rest = flags;
        if (table)
            rest.removeAll(merge);
        if (!rest.isEmpty())
            return usage(u"%1: a family's parameters are read with --expect FAMILY (the check identifies the family "
                         "and its parameters without it)"_s.arg(rest.join(u", "_s)));
        Expectation e;
        if (table) {
            e.kind = Expectation::Kind::Table;
            e.tablePath = parser.value(kExpectTable);
            e.mergeSize = mergeSize;
            e.resize = resize;
        } else if (resize) {
            return usage(u"--resize-method: how a learned grid is resized, with --expect-table or --expect learned "
                         "--position-table"_s);
        }
        return e;
    }
    const QString word = parser.value(kExpect);
    for (const Encoding family : structureFamilies()) {
        if (word != Families::word(family))
            continue;
        QStringList takes;
        for (const QString &key : FamilyChecks::of(family).table->declares)
            takes.append(u"--"_s + key);
        // A table of positions given as the model's (--position-table: a learned wpe, a ViT grid):
        // the reference, its rows from --position-offset compared with the table's exactly.
        if (flags.contains(kPositionTableFlag)) {
            if (auto reference = positionTableReference(parser, flags, takes)) {
                if (auto *e = std::get_if<Expectation>(&*reference))
                    e->resize = resize;
                return *reference;
            }
        }
        if (!flags.isEmpty())
            return usage(u"%1: a %2 table has no formula to take parameters%3"_s.arg(
                flags.join(u", "_s), word,
                takes.isEmpty()
                    ? QString()
                    : u"; it takes %1 alone, and --position-table FILE, the table it is"_s.arg(takes.join(u", "_s))));
        // A family with a structure alone is a verdict as well as a family: identify answers.
        Expectation e;
        e.kind = Expectation::Kind::Learned;
        e.family = family;
        return e;
    }
    const auto chosen = familyOf(word);
    if (!chosen)
        return usage(u"--expect: one of %1; got %2"_s.arg(expectWords().join(u", "_s), ParamError::quoted(word)));
    return familyExpectation(parser, chosen->first, chosen->second);
}

Params atShape(const Expectation &e, std::int64_t rows, std::int64_t cols)
{
    Params p = e.params;
    if (const auto &fit = FamilyChecks::of(p.encoding).fitTableRows; fit && !e.lengthGiven)
        fit(p, rows);
    if (e.widthGiven)
        return p;
    if (const auto &fit = FamilyChecks::of(p.encoding).fitTableWidth)
        fit(p, cols);
    // A table wider than the default d_model: d_model, where nothing gave it, holds its rows.
    if (!e.modelGiven)
        p.dModel = std::clamp(std::max(p.dModel, cols), std::int64_t(1), Params::kMaxDModel);
    return p;
}

std::variant<std::vector<TableMatch>, Refusal> matches(const Expectation &e, const TableRows &table,
                                                       std::uint64_t budget, const std::atomic<bool> *cancel)
{
    std::vector<TableMatch> found;
    if (e.kind == Expectation::Kind::Family) {
        const Params params = atShape(e, table.rows(), table.cols());
        // The keys given (a config's every parameter, but the inputs no flag gave), but those a table
        // may be declared to have without --expect (the rope layout), which each family's fit reads.
        TableCheck::Declared declaration {params,       {},          e.family,    e.firstPosition,
                                          e.positionsDeclared, e.queryStart, e.amplitude,     e.mapForm};
        declaration.given = e.given;
        QStringList given = e.given.value_or(QStringList());
        for (const ParamSpec &row : ParamTable::rows()) {
            if (!e.given && (!FamilyChecks::of(e.family).inputKeys.contains(row.key) || e.inputs.contains(row.key)))
                given.append(row.key);
        }
        for (const QString &key : given) {
            if (!TableCheck::declarableKeys().contains(key))
                declaration.keys.append(key);
        }
        // The layouts compared: the declared one, and the rotary module's half table where the
        // model's apply function interleaves it (Expectation::halfTableToo).
        std::vector<std::pair<Params, QString>> forms {{params, QString()}};
        if (e.halfTableToo) {
            Params half = params;
            half.rope.layout = RopeLayout::Half;
            forms.push_back({half, u"; the rotary module's cat(freqs, freqs), which the model's apply function "
                                   "interleaves"_s});
        }
        // A form that refuses the table's shape (the half table's width where the interleaved one's
        // differs) leaves the others; the first refusal is said where every form refuses.
        std::optional<Refusal> refused;
        for (const auto &[form, formText] : forms) {
            for (const QString &word : e.tables) {
                TableCheck::Declared at = declaration;
                at.params = form;
                auto expected = TableCheck::expect(table, e.family, form, word, cancel, at);
                if (cancel && cancel->load())
                    return found; // the caller says it was interrupted
                if (const auto *problem = std::get_if<QString>(&expected)) {
                    if (!refused)
                        refused = usage(u"--expect %1: %2"_s.arg(word, *problem));
                    continue;
                }
                TableMatch match = std::get<TableMatch>(std::move(expected));
                if (!e.source.isEmpty()) {
                    match.referenceText += u" (%1%2)"_s.arg(e.source, formText);
                    // A mistake named against the declared reference equals no reference.
                    if (match.verdict == CheckVerdict::Correct)
                        match.correctAgainst = CheckDiagnosis::declaredReference(match.referenceText);
                }
                found.push_back(std::move(match));
            }
        }
        if (found.empty() && refused)
            return *refused;
    }
    if (e.kind == Expectation::Kind::Table) {
        // A vector's reference is a vector (inv_freq, slopes): both read as the rows openTensor
        // gives a 1-D array, compared value by value.
        const MatrixSource source = MatrixSource::parse(e.tablePath);
        auto opened = e.tableRows ? ReadResult<std::shared_ptr<const TableRows>>(e.tableRows)
                                  : TableFile::open(source, budget, cancel);
        if (!opened) {
            const auto tensor = TableFile::openTensor(source, budget, cancel);
            if (tensor && tensor->shape.size() == 1)
                opened = tensor->rows;
        }
        const QString flag = e.referenceFirstRow ? u"--position-table: "_s : u"--expect-table: "_s;
        if (!opened)
            return Refusal {exitCodeOf(opened.error()), {flag + opened.error().toString()}};
        std::shared_ptr<const TableRows> reference = opened.value();
        // A table of positions of more rows than the table (a model's wpe, a ViT's grid with its class
        // token): the table is its rows from the declared offset, else from 0, compared row for row
        // (a grid resized to the table is GridResize's, tried first without a declared offset).
        // A declared resize (--resize-method) compares a resize of the grid, never its rows.
        std::optional<std::int64_t> from = e.resize ? std::nullopt : e.referenceFirstRow;
        if (!e.vector && !e.resize && reference->cols() == table.cols() && reference->rows() > table.rows()) {
            if (!from) {
                auto resized = TableCheck::expectTable(table, reference, e.mergeSize, false, e.resize);
                if (std::holds_alternative<TableMatch>(resized)) {
                    found.push_back(std::get<TableMatch>(std::move(resized)));
                    return found;
                }
                from = 0;
            }
        }
        if (from && *from > 0 && reference->rows() < *from + table.rows())
            return usage(
                u"--position-offset: %1 has %2 rows; the table's %3 from row %4 need %5"_s.arg(reference->name())
                    .arg(reference->rows())
                    .arg(table.rows())
                    .arg(*from)
                    .arg(*from + table.rows()));
        const bool ranged = from && reference->cols() == table.cols() && reference->rows() >= *from + table.rows()
            && !(reference->rows() == table.rows() && *from == 0);
        if (ranged)
            reference = std::make_shared<const RowRange>(reference, *from, table.rows());
        auto expected = TableCheck::expectTable(table, reference, e.mergeSize, e.vector, e.resize);
        if (const auto *refused = std::get_if<TableCheck::TableRefusal>(&expected)) {
            // The checked table's own NaN is that file's fault, not --expect-table's.
            switch (refused->whose) {
            case TableCheck::TableRefusal::Whose::Shapes:
                return usage(flag + refused->message);
            case TableCheck::TableRefusal::Whose::Table:
                return Refusal {ExitIo, {refused->message}};
            case TableCheck::TableRefusal::Whose::Reference:
                return Refusal {ExitIo, {flag + refused->message}};
            }
        }
        TableMatch match = std::get<TableMatch>(std::move(expected));
        if (ranged)
            match.notes.prepend(
                u"compared with rows %1..%2 of the %3 rows of %4 (positions 0..%5 from row %1%6)"_s.arg(*from)
                    .arg(*from + table.rows() - 1)
                    .arg(opened.value()->rows())
                    .arg(opened.value()->name())
                    .arg(table.rows() - 1)
                    .arg(e.referenceFirstRow ? u", --position-offset"_s : u", none declared"_s));
        found.push_back(std::move(match));
    }
    return found;
}

void concludeLearned(TableMatch &match, const Expectation &expected)
{
    if (match.family == expected.family)
        return;
    // No formula and no learned structure read (a table fresh from its initialiser, whose
    // neighbouring rows are unrelated): nothing it deviates from, so not a mistake.
    if (match.verdict == CheckVerdict::Unknown) {
        match.diagnosis = u"declared learned, and read as neither a formula nor a trained table (neighbouring rows "
                          "unrelated, as a table fresh from its initialiser is): %1"_s.arg(match.diagnosis);
        return;
    }
    const QString what = match.table.isEmpty() ? CheckWords::verdict(match.verdict) : match.table;
    match.verdict = CheckVerdict::Mistake;
    match.correctAgainst.clear();
    match.diagnosis = u"declared learned, yet not a learned table (%1): %2"_s.arg(what, match.diagnosis);
}

} // namespace posenc::CheckExpect
