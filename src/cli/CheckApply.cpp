#include "CheckApply.h"

#include "CheckApplyMrope.h"
#include "ExitCode.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "core/Description.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/check/TableRows.h"
#include "core/rope/ApplyCheck.h"
#include "core/rope/RopeFrequencies.h"
#include "io/TableFile.h"

#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::CheckApply {

namespace {

using Description::jsonNumber;
using Description::jsonString;

struct Read
{
    std::optional<RowMatrixXf> values;
    int code = ExitDone;
    QString message;
};

// A whole query or key matrix, [positions, head_dim], as the table files are read; X and Y held
// together with `rowBytes` a row of the check's own (a position, or three ids) within the budget.
Read readWhole(const QString &what, const QString &path, std::uint64_t budget, double rowBytes)
{
    Read read;
    const auto opened = TableFile::open(MatrixSource::parse(path), budget, nullptr);
    if (!opened) {
        read.code = exitCodeOf(opened.error());
        read.message = u"%1: %2"_s.arg(what, opened.error().toString());
        return read;
    }
    const TableRows &table = *opened.value();
    const double bytes = (2.0 * 4.0 * double(table.cols()) + rowBytes) * double(table.rows());
    if (bytes > double(budget)) {
        read.code = ExitOverBudget;
        read.message = u"%1: X and Y of %2 x %3 are held whole with the check's rows, %4 GiB, over the memory "
                       "budget of %5 GiB; raise --memory-budget"_s.arg(what)
                           .arg(table.rows())
                           .arg(table.cols())
                           .arg(NumberText::compact(bytes / double(1ull << 30), 3),
                                NumberText::compact(double(budget) / double(1ull << 30), 3));
        return read;
    }
    RowMatrixXf values(table.rows(), table.cols());
    QString error;
    if (!table.read(0, table.rows(), values.data(), error)) {
        read.code = ExitIo;
        read.message = u"%1: %2: %3"_s.arg(what, path, error);
        return read;
    }
    read.values = std::move(values);
    return read;
}

QString layoutWord(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
}

QString positionsText(const ApplyCheck::Result &r)
{
    QStringList runs;
    for (const ApplyCheck::PositionRun &run : r.positions) {
        runs.append(run.position < 0 ? u"rows %1..%2 not read"_s.arg(run.row).arg(run.row + run.count - 1)
                                     : u"rows %1..%2 at %3..%4"_s.arg(run.row)
                                           .arg(run.row + run.count - 1)
                                           .arg(run.position)
                                           .arg(run.position + run.count - 1));
    }
    return runs.join(u", "_s);
}

QStringList lines(const ApplyCheck::Result &r)
{
    QStringList out {u"verdict: %1"_s.arg(CheckWords::verdict(r.verdict))};
    if (r.verdict == CheckVerdict::Correct)
        out.append(u"equals: Y = apply_rotary_pos_emb(X) with %1"_s.arg(r.correctAgainst));
    if (!r.params) {
        out.append(u"diagnosis: "_s + r.diagnosis);
        return out;
    }
    out.append(u"rotation: %1 pairs (%2); the cos/sin table's: %3"_s.arg(
        layoutWord(r.rotation),
        r.rotation == RopeLayout::Half ? u"rotate_half, HF's Llama"_s : u"rotate_every_two, GPT-J's"_s,
        layoutWord(r.table)));
    if (r.rotaryDim < r.headDim)
        out.append(u"rotary_dim: %1 of head_dim %2 (columns %3..%4 turned, the rest pass through)"_s.arg(r.rotaryDim)
                       .arg(r.headDim)
                       .arg(r.rotaryStart)
                       .arg(r.rotaryStart + r.rotaryDim - 1));
    out.append(u"frequencies: "_s + r.frequencies);
    out.append(u"attention factor: "_s + NumberText::compact(r.attentionFactor, 6));
    out.append(u"positions: "_s + positionsText(r));
    out.append(u"max |error|: %1 at row %2, column %3; rows beyond float32's rounding: %4"_s
                   .arg(NumberText::compact(r.maxAbsError, 3))
                   .arg(r.worstRow)
                   .arg(r.worstColumn)
                   .arg(r.deviatingRows));
    if (!r.mistakes.isEmpty())
        out.append(u"mistakes: "_s + r.mistakes.join(u", "_s));
    out.append(u"diagnosis: "_s + r.diagnosis);
    for (const QString &note : r.notes)
        out.append(u"note: "_s + note);
    return out;
}

QString json(const ApplyCheck::Result &r)
{
    QStringList runs, mistakes;
    for (const ApplyCheck::PositionRun &run : r.positions)
        runs.append(u"[%1, %2, %3]"_s.arg(run.row).arg(run.position).arg(run.count));
    for (const QString &mistake : r.mistakes)
        mistakes.append(jsonString(mistake));
    const bool found = bool(r.params);
    const QList<std::pair<QString, QString>> entries {
        {u"verdict"_s, jsonString(CheckWords::verdict(r.verdict))},
        {u"layout"_s, found ? jsonString(layoutWord(r.rotation)) : u"null"_s},
        {u"table_layout"_s, found ? jsonString(layoutWord(r.table)) : u"null"_s},
        {u"head_dim"_s, QString::number(r.headDim)},
        {u"rotary_dim"_s, found ? QString::number(r.rotaryDim) : u"null"_s},
        {u"rotary_start"_s, found ? QString::number(r.rotaryStart) : u"null"_s},
        {u"frequencies"_s, found ? jsonString(r.frequencies) : u"null"_s},
        {u"attention_factor"_s, found ? jsonNumber(r.attentionFactor) : u"null"_s},
        {u"position_offset"_s, r.positionOffset ? QString::number(*r.positionOffset) : u"null"_s},
        {u"positions"_s, u"["_s + runs.join(u", "_s) + u"]"_s},
        {u"mistakes"_s, u"["_s + mistakes.join(u", "_s) + u"]"_s},
        {u"max_abs_error"_s, found ? jsonNumber(r.maxAbsError) : u"null"_s},
        {u"worst_position"_s, r.worstRow >= 0 ? QString::number(r.worstRow) : u"null"_s},
        {u"worst_column"_s, r.worstColumn >= 0 ? QString::number(r.worstColumn) : u"null"_s},
        {u"diagnosis"_s, jsonString(r.diagnosis)},
    };
    QStringList parts {JsonOutput::head(u"check-apply"_s)};
    for (const auto &[key, value] : entries)
        parts.append(u"\"%1\": %2"_s.arg(key, value));
    return u"{"_s + parts.join(u", "_s) + u"}\n"_s;
}

} // namespace

CommandOption option()
{
    return {{u"apply"_s},
            u"X"_s,
            u"posenc check --apply X.npy Y.npy: X holds a query or key before RoPE and Y after, [positions, "
            "head_dim]. Finds the pairs turned (half: rotate_half; interleaved: rotate_every_two), the pairs the "
            "cos/sin table shares (a layout swapped between the table and the apply is rope-layout-swapped), the "
            "frequencies (rope_type and parameters), the attention factor and each row's position (an offset is "
            "position-offset, rows out of order positions-out-of-order); a partial rotary's rotary_dim (against "
            "--partial-rotary-factor or --config when given: rotary-dim; the rotated part after the unrotated one: "
            "rotary-part-misplaced; inv_freq over head_dim: rotary-dim-exponent). With --encoding mrope (its "
            "flags, or --config of a Qwen-VL model) each row's (t, h, w) ids and the section split; with --prompt "
            "compared with get_rope_index's"_s,
            {},
            true};
}

namespace {

// What Y is meant to be, from the parameter flags given: nothing declared, RoPE's rotary_dim, or
// M-RoPE's parameters.
struct Meant
{
    std::optional<Params> mrope;
    bool prompt = false;
    std::optional<std::int64_t> rotaryDim;
    QString rotaryDimSource;
    std::optional<RopeLayout> layout; // the config's pairing
    int code = ExitDone;
    QStringList messages;
};

bool anyParameterGiven(const QCommandLineParser &parser)
{
    for (const CommandOption &option : ParamOptions::options()) {
        const QString key = option.names.constFirst();
        if (key != u"memory-budget"_s && key != u"rope-layout"_s && parser.isSet(key))
            return true;
    }
    return false;
}

Meant meant(const QCommandLineParser &parser, std::int64_t cols)
{
    Meant m;
    if (!anyParameterGiven(parser))
        return m;
    const ParamOptions::Clues clues {
        {u"--apply"_s, [](const Params &p) { return Families::spec(p.encoding).rotary.has_value(); }}};
    ParamOptions::Result read = ParamOptions::read(parser, clues);
    if (read.exitCode() != ExitDone) {
        m.code = read.exitCode();
        m.messages = read.messages();
        return m;
    }
    const bool config = parser.isSet(u"config"_s);
    Params &p = read.params;
    if (!parser.isSet(u"head-dim"_s) && !config)
        p.rope.headDim = cols;
    if (p.rope.headDim != cols) {
        m.code = ExitUsage;
        m.messages = {u"--apply: X and Y have %1 columns, but %2 gives head_dim %3"_s.arg(cols).arg(
            config ? u"--config"_s : u"--head-dim"_s, QString::number(p.rope.headDim))};
        return m;
    }
    if (p.encoding == Encoding::Mrope) {
        m.mrope = p;
        m.prompt = parser.isSet(u"prompt"_s);
        return m;
    }
    if (config)
        m.layout = p.rope.layout;
    if (parser.isSet(u"partial-rotary-factor"_s) || config) {
        m.rotaryDim = RopeFrequencies::rotaryDim(p.rope);
        m.rotaryDimSource = u"%1partial_rotary_factor %2"_s.arg(config ? u"the config's "_s : QString(),
                                                                QString::number(p.rope.partialRotaryFactor));
    }
    return m;
}

} // namespace

int run(const Request &request, QTextStream &out, QTextStream &err)
{
    const auto fail = [&](int code, const QString &message) {
        err << "posenc check: " << message << '\n';
        return code;
    };
    if (request.positional.size() != 1)
        return fail(ExitUsage,
                    u"--apply X Y: expected one Y, the query or key after RoPE; got %1"_s.arg(
                        request.positional.isEmpty() ? u"none"_s : request.positional.join(u' ')));
    const bool mropeFlags = request.parser && request.parser->value(u"encoding"_s) == u"mrope"_s;
    const double rowBytes = mropeFlags || (request.parser && request.parser->isSet(u"config"_s)) ? 48.0 : 8.0;
    const Read x = readWhole(u"--apply X"_s, request.x, request.budget, rowBytes);
    if (!x.values)
        return fail(x.code, x.message);
    const Read y = readWhole(u"--apply Y"_s, request.positional.first(), request.budget, rowBytes);
    if (!y.values)
        return fail(y.code, y.message);
    const Meant m = request.parser ? meant(*request.parser, x.values->cols()) : Meant();
    if (m.code != ExitDone) {
        for (const QString &message : m.messages)
            fail(m.code, message);
        return m.code;
    }
    if (m.mrope) {
        MropeApplyCheck::Declared declared {*m.mrope, m.prompt, request.threads};
        const auto checked = MropeApplyCheck::check(*x.values, *y.values, declared);
        if (const auto *refused = std::get_if<QString>(&checked))
            return fail(ExitUsage, u"--apply: "_s + *refused);
        const auto &r = std::get<MropeApplyCheck::Result>(checked);
        out << (request.json ? CheckApplyMrope::json(r) : CheckApplyMrope::lines(r).join(u'\n') + u'\n');
        return request.exitCode(r.verdict);
    }
    ApplyCheck::Declared declared;
    declared.layout = request.layout ? request.layout : m.layout;
    declared.rotaryDim = m.rotaryDim;
    declared.rotaryDimSource = m.rotaryDimSource;
    declared.threads = request.threads;
    const auto checked = ApplyCheck::check(*x.values, *y.values, declared);
    if (const auto *refused = std::get_if<QString>(&checked))
        return fail(ExitUsage, u"--apply: "_s + *refused);
    const ApplyCheck::Result &r = std::get<ApplyCheck::Result>(checked);
    out << (request.json ? json(r) : lines(r).join(u'\n') + u'\n');
    return request.exitCode(r.verdict);
}

} // namespace posenc::CheckApply
