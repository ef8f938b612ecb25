#include "CheckApply.h"

#include "CheckApplyHeads.h"
#include "CheckExpect.h"
#include "ExitCode.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "check/FamilyCheck.h"
#include "check/TableCheck.h"
#include "check/TableRows.h"
#include "check/models/ModelExamples.h"
#include "check/models/ModelTable.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "io/ModelConfigFile.h"
#include "io/PositionIdsFile.h"
#include "io/Preset.h"
#include "io/TableFile.h"

#include <QFileInfo>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::CheckApply {

namespace {

struct Read
{
    std::optional<RowMatrixXf> values;
    std::vector<std::int64_t> shape; // as stored: a matrix, or many heads (CheckApplyHeads)
    StoredType stored = StoredType::Float32;
    int code = ExitDone;
    QString message;
};

QString shapeWords(const std::vector<std::int64_t> &shape)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    return dims.join(u", "_s);
}

// A whole query or key matrix, [positions, head_dim], as the table files are read; X and Y held
// together with `rowBytes` a row of the check's own (a position, or three ids) within the budget.
Read readWhole(const QString &what, const QString &path, std::uint64_t budget, double rowBytes)
{
    Read read;
    // Many heads are read as the array's rows; a matrix as every table is (TableFile::open).
    const MatrixSource source = MatrixSource::parse(path);
    const auto tensor = TableFile::openTensor(source, budget, nullptr);
    // An array with a dimension of 0 holds no row to check: nothing in it says whether a rotation was
    // applied, so it is refused as the file's fault, as a table of no cells is (exit 3).
    if (tensor) {
        const std::vector<std::int64_t> &shape = tensor.value().shape;
        if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {
            read.code = ExitIo;
            read.message = u"%1: %2 holds no rows (shape (%3)): a query or key holds a row per position, L >= 1 and "
                           "head_dim >= 2"_s.arg(what, path, shapeWords(shape));
            return read;
        }
    }
    if (tensor && (tensor.value().shape.size() > 4 || CheckApplyHeads::isHeads(tensor.value().shape))) {
        read.shape = tensor.value().shape;
        if (read.shape.size() > 4) {
            read.code = ExitUsage;
            read.message = u"%1: %2 holds an array of shape (%3); a query or key is %4"_s.arg(what, path)
                               .arg(shapeWords(read.shape), CheckApplyHeads::acceptedShapes());
            return read;
        }
    }
    const auto opened = read.shape.empty() ? TableFile::open(source, budget, nullptr)
                                           : ReadResult<std::shared_ptr<const TableRows>>(tensor.value().rows);
    if (!opened) {
        read.code = exitCodeOf(opened.error());
        read.message = u"%1: %2"_s.arg(what, opened.error().toString());
        return read;
    }
    const TableRows &table = *opened.value();
    if (table.rows() <= 0 || table.cols() <= 0) {
        read.code = ExitIo;
        read.message = u"%1: %2 holds no rows (%3 x %4): a query or key holds a row per position, L >= 1 and "
                       "head_dim >= 2"_s.arg(what, path)
                           .arg(table.rows())
                           .arg(table.cols());
        return read;
    }
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
    // A query or key holds numbers: a cell that does not is the file's fault, named with its place.
    if (!values.allFinite()) {
        const float *cells = values.data();
        const std::int64_t at
            = std::find_if(cells, cells + values.size(), [](float v) { return !std::isfinite(v); }) - cells;
        read.code = ExitIo;
        read.message
            = u"%1: %2: row %3, column %4 holds %5; a query or key holds finite numbers"_s.arg(what, table.name())
                  .arg(at / table.cols())
                  .arg(at % table.cols())
                  .arg(nonFiniteWords(cells[at], table.storedType()));
        return read;
    }
    read.values = std::move(values);
    read.stored = table.storedType();
    return read;
}

// The rotary families' apply checks, in the list's order.
QList<const ApplyHypothesis *> hypotheses()
{
    QList<const ApplyHypothesis *> list;
    for (const FamilySpec &family : Families::all()) {
        if (const auto &apply = FamilyChecks::of(family.encoding).apply)
            list.append(&*apply);
    }
    return list;
}

// The family whose check reads X and Y: the one the parameters declare, else the list's first
// with an apply check.
Encoding checkedFamily(const std::optional<Encoding> &declared)
{
    if (declared && FamilyChecks::of(*declared).apply)
        return *declared;
    for (const FamilySpec &family : Families::all()) {
        if (FamilyChecks::of(family.encoding).apply)
            return family.encoding;
    }
    return {};
}

} // namespace

CommandOption option()
{
    QStringList helps;
    for (const ApplyHypothesis *apply : hypotheses())
        helps.append(apply->help);
    return {{u"apply"_s},
            u"X"_s,
            u"posenc check --apply X.npy Y.npy: X holds a query or key before RoPE and Y after, [positions, "
            "head_dim], or many heads, [H, L, D], [B, H, L, D] or [B, L, H, D], each head checked on its own; "
            "which axis holds the heads, the array alone cannot say where both readings are rotations (Y turned "
            "along its heads' axis reads as a correct rotation the other way): --apply-heads N, the length "
            "of --position-ids or --config's num_attention_heads (num_key_value_heads) declares it (a rotation "
            "only the other reading explains: rope-along-heads-axis), as does a reference declared in full "
            "that exactly one reading, of fewer heads than positions, equals; without any the two readings' "
            "disagreement is unknown. "_s
                + helps.join(u". "_s),
            {},
            true};
}

CommandOption headsOption()
{
    return {{u"apply-heads"_s},
            u"N"_s,
            u"with --apply, X's count of heads: the axis of X's that long holds the heads ([H, L, D], [B, H, L, D] "
            "or [B, L, H, D]), the other the positions"_s};
}

namespace {

// What Y is meant to be, from the parameter flags given: the family and its parameters, or nothing
// declared.
struct Meant
{
    std::optional<Params> params;
    QStringList keys; // the parameter keys given
    bool config = false;
    // Whether the parameters are a reference declared in full (ApplyDeclaration::reference), or a
    // row's shape alone, compared as given (its width, rotated share, pairing).
    bool full = false;
    // The config that declared the reference, and where each of its numbers comes from.
    QString configPath;
    QList<std::pair<QString, QString>> configSources;
    int code = ExitDone;
    QStringList messages;
};

// The parameter keys given on the command line but those that say nothing of Y.
QStringList givenKeys(const QCommandLineParser &parser)
{
    QStringList keys;
    for (const CommandOption &option : ParamOptions::options()) {
        const QString key = option.names.constFirst();
        if (key != u"memory-budget"_s && parser.isSet(key))
            keys.append(key);
    }
    return keys;
}

// The width key laid at X's columns where nothing gave it; a width given otherwise must be X's.
std::optional<QString> widthProblem(Params &p, std::int64_t cols, bool given, const QString &source)
{
    const QString widthKey = FamilyChecks::of(checkedFamily(p.encoding)).apply->widthKey;
    const ParamSpec *width = ParamTable::find(widthKey);
    if (!width)
        return std::nullopt;
    if (!given) {
        width->assign(p, ParamValue(cols));
        p.dModel = std::clamp(std::max(p.dModel, cols), std::int64_t(1), Params::kMaxDModel);
    }
    if (width->value(p) == ParamValue(cols))
        return std::nullopt;
    return u"--apply: X and Y have %1 columns, but %2 gives %3 %4"_s.arg(cols).arg(
        source.isEmpty() ? u"--"_s + widthKey : source, width->label, ParamText::get(p, widthKey));
}

// --expect FAMILY with its flags, or --expect-config: the reference as the table check reads it
// (CheckExpect), its width X's where no flag or config gives it. --expect-table and a learned
// table declare no rotation.
Meant expected(const QCommandLineParser &parser, std::int64_t cols, Meant m)
{
    auto expectation = CheckExpect::read(parser, TableCheck::declarableKeys() + QStringList {u"memory-budget"_s});
    if (const auto *refused = std::get_if<CheckExpect::Refusal>(&expectation)) {
        m.code = refused->code;
        m.messages = refused->lines;
        return m;
    }
    const CheckExpect::Expectation &e = std::get<CheckExpect::Expectation>(expectation);
    m.code = ExitUsage;
    if (e.kind != CheckExpect::Expectation::Kind::Family || !FamilyChecks::of(e.family).apply) {
        m.messages
            = {u"%1: with --apply, Y is compared with X turned by a rotation's parameters: declare them with "
               "--expect and its flags, --preset, --config or --expect-config"_s.arg(
                   parser.isSet(u"expect-table"_s) ? u"--expect-table"_s : u"--expect "_s + parser.value(u"expect"_s))};
        return m;
    }
    Params p = e.params;
    const bool config = parser.isSet(u"expect-config"_s);
    if (const auto problem = widthProblem(p, cols, e.widthGiven || config, config ? u"--expect-config"_s : QString())) {
        m.messages = {*problem};
        return m;
    }
    m.code = ExitDone;
    m.config = config;
    m.full = true;
    m.params = p;
    m.configPath = e.configPath;
    m.configSources = e.configSources;
    return m;
}

Meant meant(const QCommandLineParser &parser, std::int64_t cols)
{
    Meant m;
    m.keys = givenKeys(parser);
    m.config = parser.isSet(u"config"_s);
    if (parser.isSet(u"expect"_s) || parser.isSet(u"expect-config"_s) || parser.isSet(u"expect-table"_s))
        return expected(parser, cols, m);
    // Keys a check reads alone (a pairing declared) declare no family.
    QStringList alone;
    for (const ApplyHypothesis *apply : hypotheses())
        alone += apply->declares;
    if (std::all_of(m.keys.cbegin(), m.keys.cend(), [&](const QString &key) { return alone.contains(key); }))
        return m;
    const ParamOptions::Clues clues {
        {u"--apply"_s, [](const Params &p) { return FamilyChecks::of(p.encoding).apply.has_value(); }}};
    // A row's width is X's columns unless a flag, the preset or the config gives it, laid before the
    // parameters are checked (a section of M-RoPE sums to X's pairs, not to the default head's).
    const ParamOptions::Fit fit = [&](Params &p, const ParamOptions::Given &given) {
        const ParamSpec *width = ParamTable::find(FamilyChecks::of(checkedFamily(p.encoding)).apply->widthKey);
        if (!width || given.contains(width->key))
            return;
        width->assign(p, ParamValue(cols));
        if (!given.contains(u"d-model"_s))
            p.dModel = std::clamp(std::max(p.dModel, cols), std::int64_t(1), Params::kMaxDModel);
    };
    ParamOptions::Result read = ParamOptions::read(parser, clues, true, fit);
    if (read.exitCode() != ExitDone) {
        m.code = read.exitCode();
        m.messages = read.messages();
        return m;
    }
    // A row's width: X's columns, unless a flag or the config gives it.
    if (const auto problem = widthProblem(read.params, cols, true, m.config ? u"--config"_s : QString())) {
        m.code = ExitUsage;
        m.messages = {*problem};
        return m;
    }
    m.params = read.params;
    if (m.config && read.configLayer) {
        m.configPath = parser.value(u"config"_s);
        m.configSources = read.configLayer->sources;
    }
    // A row's shape alone declares no frequencies: a rotation at any theta is one of this width,
    // share and pairing. A frequency's flag, a preset or a config declares the reference in full,
    // as --expect FAMILY does, its other parameters the defaults.
    static const QStringList shape {u"encoding"_s, u"head-dim"_s, u"partial-rotary-factor"_s, u"rope-layout"_s};
    m.full = m.config
        || std::any_of(m.keys.cbegin(), m.keys.cend(), [](const QString &key) { return !shape.contains(key); });
    return m;
}

// The flags given that --apply does not read: those of another family, of a table's check, of a
// batch's ids; each would be ignored, so it is refused.
QStringList idleFlags(const QCommandLineParser &parser, const QList<Encoding> &families)
{
    static const QStringList read {u"apply"_s,  u"json"_s,    u"threads"_s,       u"memory-budget"_s, u"quiet"_s,
                                   u"help"_s,   u"expect"_s,  u"expect-config"_s, u"layer-type"_s,    u"config"_s,
                                   u"preset"_s, u"session"_s, u"encoding"_s,      u"position-ids"_s,  u"apply-heads"_s};
    QStringList idle;
    for (const QString &name : parser.optionNames()) {
        const ParamSpec *param = ParamTable::find(name);
        const bool familys
            = param && param->family && std::any_of(families.begin(), families.end(), [&](Encoding family) {
                  return *param->family == family || Families::spec(family).borrowsRow(*param->family, name);
              });
        if (!read.contains(name) && !familys && !idle.contains(u"--"_s + name))
            idle.append(u"--"_s + name);
    }
    return idle;
}

QString idleWords(const QStringList &idle, const QString &families)
{
    return u"%1: no effect with --apply, which reads X and Y, the rotation they are meant to be (--expect and its "
           "flags, --preset, --config, --expect-config, %2's flags) and --position-ids"_s.arg(idle.join(u", "_s),
                                                                                              families);
}

// --position-ids with --apply: the positions of a head's rows, one id a row, [L] or [B, L] (B that of
// X's [B, H, L, D] or [B, L, H, D], or 1 for every batch), one list a batch.
struct Ids
{
    std::vector<std::vector<std::int64_t>> batches;
    int code = ExitDone;
    QString message;
};

Ids readIds(const QString &path, std::uint64_t budget, const Read &x)
{
    Ids ids;
    const auto read = PositionIdsFile::read(path, budget);
    if (!read) {
        ids.code = exitCodeOf(read.error());
        ids.message = u"--position-ids: "_s + read.error().toString();
        return ids;
    }
    const std::int64_t batch = x.shape.size() == 4 ? x.shape[0] : 1;
    // A head's positions: X's rows, or one of the two dimensions before its width.
    std::vector<std::int64_t> lengths {x.values->rows()};
    if (!x.shape.empty())
        lengths = {x.shape[x.shape.size() - 3], x.shape[x.shape.size() - 2]};
    const RowMatrixXf &values = read->values;
    const bool fits = read->shape.size() <= 2 && (values.rows() == 1 || values.rows() == batch)
        && std::find(lengths.begin(), lengths.end(), values.cols()) != lengths.end();
    if (!fits) {
        ids.code = ExitUsage;
        ids.message = u"--position-ids: %1 holds ids of shape (%2); with --apply X of (%3) they are one id a row of "
                      "a head, %4"_s.arg(
                          path, shapeWords(read->shape),
                          shapeWords(x.shape.empty() ? std::vector {x.values->rows(), x.values->cols()} : x.shape),
                          batch == 1 ? u"[L] or [1, L]"_s : u"[L] or [B, L] with B %1 or 1"_s.arg(batch));
        return ids;
    }
    // Exact in float32 below 2^24; a position past it is no position a check can read.
    constexpr float kMost = 16777216.0f;
    for (std::int64_t b = 0; b < values.rows(); ++b) {
        std::vector<std::int64_t> row;
        for (std::int64_t l = 0; l < values.cols(); ++l) {
            const float id = values(b, l);
            if (!(id >= 0.0f && id < kMost) || id != std::floor(id)) {
                ids.code = ExitUsage;
                ids.message = u"--position-ids: ids must be whole numbers in [0, 2^24); got %1 at row %2, column %3"_s
                                  .arg(double(id))
                                  .arg(b)
                                  .arg(l);
                return ids;
            }
            row.push_back(std::int64_t(id));
        }
        ids.batches.push_back(std::move(row));
    }
    return ids;
}

// The heads' counts --config or --expect-config gives (num_attention_heads, and num_key_value_heads
// for a key; text_config's where the text model's keys sit there): the axis of X's two leading ones
// that exactly one of them names holds the heads, as --apply-heads says; nothing where none or both
// axes are named, or the config cannot be read (the parameters' reading says why).
// The model config declared: --expect-config's or --config's (an example's name or a file), else the
// example config of --preset's model (Preset::config); nothing where none is.
std::optional<QJsonObject> declaredConfig(const QCommandLineParser &parser, bool presetToo)
{
    const QString key = parser.isSet(u"expect-config"_s) ? u"expect-config"_s : u"config"_s;
    QString source = parser.isSet(key) ? parser.value(key) : QString();
    if (source.isEmpty() && presetToo && parser.isSet(u"preset"_s)) {
        const Preset *preset = Presets::find(parser.value(u"preset"_s));
        if (!preset || preset->config.isEmpty())
            return std::nullopt;
        source = preset->config;
    }
    if (source.isEmpty())
        return std::nullopt;
    if (const ModelExamples::Example *example = ModelExamples::find(source); example && !QFileInfo::exists(source))
        return example->config;
    if (const auto read = ModelConfigFile::read(source))
        return read.value();
    return std::nullopt;
}

// Whether the declared model's code writes interleaved RoPE's output de-interleaved, [evens | odds]:
// transformers' modeling_deepseek_v3.py, where config.rope_interleave (default true) has
// DeepseekV3Attention call apply_rotary_pos_emb_interleave, q.view(b, h, s, d // 2, 2).transpose(4,
// 3).reshape(b, h, s, d) then q * cos + rotate_half(q) * sin, q and k alike (q . k that of the pairs
// turned in place). A model table row of layout "rope_interleave" is such a class. Unset where no
// model is declared (flags alone): the code that wrote Y is not known.
std::optional<bool> declaredDeinterleaves(const QCommandLineParser &parser)
{
    if (!parser.isSet(u"preset"_s) && !parser.isSet(u"config"_s) && !parser.isSet(u"expect-config"_s))
        return std::nullopt;
    const std::optional<QJsonObject> config = declaredConfig(parser, true);
    if (!config)
        return false;
    const QJsonObject text = config->value(u"text_config"_s).toObject();
    const QJsonObject &keys = config->contains(u"model_type"_s) || text.isEmpty() ? *config : text;
    const ModelRow *row = ModelTable::find(keys.value(u"model_type"_s).toString());
    return row
        && ((row->layout == u"rope_interleave"_s && keys.value(u"rope_interleave"_s).toBool(true))
            || row->ownCodeDeinterleaves);
}

std::optional<std::int64_t> configHeads(const QCommandLineParser &parser, const std::vector<std::int64_t> &shape)
{
    if (shape.size() < 3)
        return std::nullopt;
    const std::optional<QJsonObject> declared = declaredConfig(parser, false);
    if (!declared)
        return std::nullopt;
    const QJsonObject &config = *declared;
    const QJsonObject text = config.value(u"text_config"_s).toObject();
    const std::int64_t first = shape[shape.size() - 3], second = shape[shape.size() - 2];
    bool firstNamed = false, secondNamed = false;
    for (const QString &name : {u"num_attention_heads"_s, u"num_key_value_heads"_s, u"n_head"_s, u"n_heads"_s}) {
        const QJsonValue v = config.contains(name) ? config.value(name) : text.value(name);
        const auto count = v.isDouble() ? std::int64_t(v.toDouble()) : std::int64_t(0);
        firstNamed = firstNamed || (count > 0 && count == first);
        secondNamed = secondNamed || (count > 0 && count == second);
    }
    if (first == second || firstNamed == secondNamed)
        return std::nullopt;
    return firstNamed ? first : second;
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
    // The check's own rows are held with X and Y: the family the flags name, any for a config's.
    double rowBytes = FamilyChecks::of(checkedFamily(std::nullopt)).apply->rowBytes;
    if (request.parser && request.parser->isSet(u"config"_s)) {
        for (const ApplyHypothesis *apply : hypotheses())
            rowBytes = std::max(rowBytes, apply->rowBytes);
    } else if (request.parser && request.parser->isSet(u"encoding"_s)) {
        if (const auto family = Families::fromWord(request.parser->value(u"encoding"_s)))
            rowBytes = FamilyChecks::of(checkedFamily(family)).apply->rowBytes;
    }
    // A flag no rotation's check reads, refused before the parameters are read.
    QList<Encoding> rotary;
    QStringList headings;
    for (const FamilySpec &spec : Families::all()) {
        if (FamilyChecks::of(spec.encoding).apply) {
            rotary.append(spec.encoding);
            headings.append(spec.heading);
        }
    }
    if (const QStringList idle = request.parser ? idleFlags(*request.parser, rotary) : QStringList(); !idle.isEmpty())
        return fail(ExitUsage, idleWords(idle, headings.join(u" or "_s)));
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
    ApplyDeclaration declared;
    declared.params = m.params.value_or(request.declared);
    declared.keys = m.keys;
    declared.config = m.config;
    declared.configPath = m.configPath;
    declared.configSources = m.configSources;
    // A family declared in full (a frequency's flags, a preset, a config, --expect) is the reference Y
    // is compared with.
    if (m.full)
        declared.reference = m.params;
    if (request.parser)
        declared.deinterleaves = declaredDeinterleaves(*request.parser);
    declared.stored = storedFormat(y.stored);
    declared.threads = request.threads;
    const Encoding family = checkedFamily(m.params ? std::optional(m.params->encoding) : std::nullopt);
    if (const QStringList idle = request.parser ? idleFlags(*request.parser, {family}) : QStringList(); !idle.isEmpty())
        return fail(ExitUsage, idleWords(idle, Families::spec(family).heading));
    if (x.shape != y.shape)
        return fail(ExitUsage,
                    u"--apply: X is (%1) and Y (%2); Y is X rotated, of its shape"_s.arg(shapeWords(x.shape),
                                                                                         shapeWords(y.shape)));
    // The rows' positions, where given: a forward pass's q or k of a padded or packed batch.
    Ids ids;
    if (request.parser && request.parser->isSet(u"position-ids"_s)) {
        if (!FamilyChecks::of(family).apply->positionIds)
            return fail(ExitUsage,
                        u"--position-ids with --apply: the %1 check reads its rows' ids from its own parameters "
                        "(--prompt), not one id a row; give --position-ids without --apply to check such ids"_s.arg(
                            Families::spec(family).heading));
        ids = readIds(request.parser->value(u"position-ids"_s), request.budget, x);
        if (ids.code != ExitDone)
            return fail(ids.code, ids.message);
    }
    const CheckApplyHeads::CheckOne one = [&](const RowMatrixXf &xs, const RowMatrixXf &ys, std::int64_t batch) {
        ApplyDeclaration atIds = declared;
        if (!ids.batches.empty() && batch != CheckApplyHeads::kNoIds)
            atIds.positionIds = ids.batches[std::size_t(ids.batches.size() == 1 ? 0 : batch)];
        return FamilyChecks::of(family).apply->check(xs, ys, atIds);
    };
    // Which of many heads' axes holds them: --apply-heads, or the ids' length (CheckApplyHeads::Axes).
    CheckApplyHeads::Axes axes;
    if (request.parser && request.parser->isSet(u"apply-heads"_s)) {
        bool ok = false;
        const qlonglong heads = request.parser->value(u"apply-heads"_s).toLongLong(&ok);
        if (!ok || heads < 1 || heads > (qlonglong(1) << 24))
            return fail(ExitUsage,
                        u"--apply-heads: X's count of heads, a whole number in [1, 2^24]; got %1"_s.arg(
                            request.parser->value(u"apply-heads"_s)));
        axes.heads = heads;
        if (!CheckApplyHeads::isHeads(x.shape))
            return fail(ExitUsage,
                        u"--apply-heads: X is one head's [positions, head_dim]; the flag picks the heads' "
                        "axis of [H, L, D], [B, H, L, D] or [B, L, H, D]"_s);
    }
    if (!axes.heads && request.parser && CheckApplyHeads::isHeads(x.shape))
        axes.heads = configHeads(*request.parser, x.shape);
    if (!ids.batches.empty())
        axes.positions = std::int64_t(ids.batches.front().size());
    axes.reference = declared.reference.has_value();
    const auto checked = CheckApplyHeads::isHeads(x.shape)
        ? CheckApplyHeads::check(*x.values, *y.values, x.shape, one, axes)
        : one(*x.values, *y.values, 0);
    if (const auto *refused = std::get_if<QString>(&checked))
        return fail(ExitUsage, u"--apply: "_s + *refused);
    const ApplyResult &result = std::get<ApplyResult>(checked);
    if (request.json)
        out << u"{"_s << JsonOutput::head(u"check-apply"_s, JsonOutput::kCheckVersion) << u", "_s << result.json << u"}\n"_s;
    else
        out << result.lines.join(u'\n') << u'\n';
    return request.exitCode(result.verdict);
}

} // namespace posenc::CheckApply
