#include "CheckApply.h"

#include "CheckApplyMrope.h"
#include "CheckApplyReport.h"
#include "ExitCode.h"
#include "ParamOptions.h"

#include "check/TableRows.h"
#include "check/mrope/MropeMistakes.h"
#include "check/rope/ApplyCheck.h"
#include "core/Description.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "io/TableFile.h"

#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::CheckApply {

namespace {

using Description::jsonString;

struct Read
{
    std::optional<RowMatrixXf> values;
    StoredType stored = StoredType::Float32;
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
    read.stored = table.storedType();
    return read;
}

QString positionsText(const ApplyCheck::Result &r)
{
    QStringList runs;
    for (const ApplyCheck::PositionRun &run : r.positions) {
        if (run.count == 1)
            runs.append(run.position < 0 ? u"row %1 not read"_s.arg(run.row)
                                         : u"row %1 at %2"_s.arg(run.row).arg(run.position));
        else
            runs.append(run.position < 0 ? u"rows %1..%2 not read"_s.arg(run.row).arg(run.row + run.count - 1)
                                         : u"rows %1..%2 at %3..%4"_s.arg(run.row)
                                               .arg(run.row + run.count - 1)
                                               .arg(run.position)
                                               .arg(run.position + run.count - 1));
    }
    return runs.join(u", "_s);
}

// RoPE's share of the report: the rotated part, the frequencies, the positions by runs of rows.
CheckApplyReport::Family ropeFamily(const ApplyCheck::Result &r)
{
    CheckApplyReport::Family f;
    f.equals = u"Y = apply_rotary_pos_emb(X) with %1"_s.arg(r.correctAgainst);
    f.found = bool(r.params);
    if (r.rotaryDim < r.headDim)
        f.pairing.append(
            u"rotary_dim: %1 of head_dim %2 (columns %3..%4 turned, the rest pass through)"_s.arg(r.rotaryDim)
                .arg(r.headDim)
                .arg(r.rotaryStart)
                .arg(r.rotaryStart + r.rotaryDim - 1));
    f.pairing.append(u"frequencies: "_s + r.frequencies);
    f.positions = {u"positions: "_s + positionsText(r)};
    QStringList runs;
    for (const ApplyCheck::PositionRun &run : r.positions)
        runs.append(u"[%1, %2, %3]"_s.arg(run.row).arg(run.position).arg(run.count));
    const bool found = f.found;
    f.pairingKeys = {
        {u"head_dim"_s, QString::number(r.headDim)},
        {u"rotary_dim"_s, found ? QString::number(r.rotaryDim) : u"null"_s},
        {u"rotary_start"_s, found ? QString::number(r.rotaryStart) : u"null"_s},
        {u"frequencies"_s, found ? jsonString(r.frequencies) : u"null"_s},
    };
    f.positionKeys = {
        {u"position_offset"_s, r.positionOffset ? QString::number(*r.positionOffset) : u"null"_s},
        {u"positions"_s, u"["_s + runs.join(u", "_s) + u"]"_s},
    };
    return f;
}

} // namespace

CommandOption option()
{
    QStringList mrope;
    for (const MropeMistakes::Mistake &m : MropeMistakes::all()) {
        if (m.id != MropeMistakes::kSectionSum)
            mrope.append(m.id);
    }
    return {{u"apply"_s},
            u"X"_s,
            u"posenc check --apply X.npy Y.npy: X holds a query or key before RoPE and Y after, [positions, "
            "head_dim]. Finds the pairs turned (half: rotate_half; interleaved: rotate_every_two), the pairs the "
            "cos/sin table shares (a layout swapped between the table and the apply is rope-layout-swapped), the "
            "frequencies (rope_type and parameters), the attention factor and each row's position (an offset is "
            "position-offset, rows out of order positions-out-of-order, a rotation by -angle rotation-reversed); a "
            "partial rotary's rotary_dim (against "
            "--partial-rotary-factor or --config when given: rotary-dim; the rotated part after the unrotated one: "
            "rotary-part-misplaced; inv_freq over head_dim: rotary-dim-exponent). With --encoding mrope (its "
            "flags, or --config of a Qwen-VL model) each row's (t, h, w) ids and the section split; with --prompt "
            "compared with get_rope_index's (%1)"_s.arg(mrope.join(u", "_s)),
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

// What RoPE's check is told: the pairing declared (--rope-layout, else the config's), the
// rotary_dim, and the format Y's file stores.
ApplyCheck::Declared ropeDeclared(const Request &request, const Meant &m, StoredType yStored)
{
    ApplyCheck::Declared declared;
    declared.stored = storedFormat(yStored);
    declared.layout = request.layout ? request.layout : m.layout;
    declared.rotaryDim = m.rotaryDim;
    declared.rotaryDimSource = m.rotaryDimSource;
    declared.threads = request.threads;
    return declared;
}

struct Reported
{
    CheckVerdict verdict = CheckVerdict::Unknown;
    QString text;
};

// A family's check reported, its lines or --json's object; or why the check was refused.
template<class Result>
std::variant<Reported, QString> report(const std::variant<Result, QString> &checked, bool json,
                                       CheckApplyReport::Family (*family)(const Result &))
{
    if (const auto *refused = std::get_if<QString>(&checked))
        return *refused;
    const Result &r = std::get<Result>(checked);
    const CheckApplyReport::Family f = family(r);
    return Reported {r.verdict,
                     json ? CheckApplyReport::json(r, f) : CheckApplyReport::lines(r, f).join(u'\n') + u'\n'};
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
    const auto checked = m.mrope
        ? report(MropeApplyCheck::check(*x.values, *y.values, {*m.mrope, m.prompt, request.threads}), request.json,
                 CheckApplyMrope::family)
        : report(ApplyCheck::check(*x.values, *y.values, ropeDeclared(request, m, y.stored)), request.json, ropeFamily);
    if (const auto *refused = std::get_if<QString>(&checked))
        return fail(ExitUsage, u"--apply: "_s + *refused);
    const auto &[verdict, text] = std::get<Reported>(checked);
    out << text;
    return request.exitCode(verdict);
}

} // namespace posenc::CheckApply
