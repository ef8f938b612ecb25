#include "RopeHalfAngles.h"

#include "check/CellTolerance.h"
#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "check/PairReference.h"
#include "check/TableSample.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::RopeHalfAngles {

namespace {

// The rows the pipelines are scored on: the sample's (TableSample) and those the stream found
// deviating first, with their cells.
struct HalfAngleRows
{
    std::vector<std::int64_t> rows;
    std::vector<float> values; // rows x cols
};

struct HalfAngleScore
{
    std::int64_t compared = 0;
    std::int64_t bad = 0;
};

// float16's largest finite value: positions and angles past it are infinite in float16.
constexpr double kFloat16Largest = 65504.0;
// Of the cells compared, the share a pipeline may leave beyond the rounding and still explain the
// table: a float32 inv_freq one unit away from the code's (its pow) moves a product across a
// rounding boundary of the half format now and then, which moves that cell by a unit of the angle.
constexpr std::int64_t kCellsPerStray = 1000;
// The stages tried, one, two, then all three: pipelines that explain the table alike are each said.
constexpr std::array<unsigned, 7> kPipelines {Product,
                                              InvFreq,
                                              Positions,
                                              InvFreq | Product,
                                              Positions | Product,
                                              InvFreq | Positions,
                                              InvFreq | Positions | Product};

QString formatWord(bool bfloat16)
{
    return bfloat16 ? u"bfloat16"_s : u"float16"_s;
}

// The largest position whose every integer below it the format holds: 2^(mantissa bits + 1).
std::int64_t exactPositions(bool bfloat16)
{
    return bfloat16 ? 256 : 2048;
}

std::optional<HalfAngleRows> readRows(const TableRows &table, const std::vector<std::int64_t> &deviatingRows)
{
    constexpr std::int64_t kCells = std::int64_t(1) << 20;
    HalfAngleRows read;
    read.rows = sampleRows(table.rows(), table.cols(), kCells);
    read.rows.insert(read.rows.end(), deviatingRows.begin(), deviatingRows.end());
    std::sort(read.rows.begin(), read.rows.end());
    read.rows.erase(std::unique(read.rows.begin(), read.rows.end()), read.rows.end());
    const std::int64_t cols = table.cols();
    read.values.resize(read.rows.size() * std::size_t(cols));
    QString error;
    for (std::size_t k = 0; k < read.rows.size(); ++k) {
        if (!table.read(read.rows[k], 1, read.values.data() + k * std::size_t(cols), error))
            return std::nullopt;
    }
    return read;
}

// The cells of `rows` against the reference's columns with each angle from `angleOf(w, p)`.
template<typename AngleOf>
HalfAngleScore scoreRows(const HalfAngleRows &rows, const PairReferenceSpec &spec, const CellTolerance &tolerance,
                         AngleOf angleOf)
{
    HalfAngleScore s;
    const std::int64_t cols = spec.cols();
    for (std::size_t k = 0; k < rows.rows.size(); ++k) {
        const std::int64_t row = rows.rows[k];
        if (!spec.compared(row))
            continue;
        const std::int64_t p = spec.position(row);
        const float *cells = rows.values.data() + k * std::size_t(cols);
        for (std::int64_t c = 0; c < cols; ++c) {
            const ReferenceColumn &column = spec.columns[std::size_t(c)];
            double value = 0.0;
            if (column.pair >= 0) {
                const double a = angleOf(spec.schedule.w[std::size_t(column.pair)], p);
                value = spec.schedule.amplitude * (column.isCos ? std::cos(a) : std::sin(a));
            }
            const double limit = kCellRoundingMargin * tolerance.limit(value, c, double(p));
            ++s.compared;
            s.bad += !(std::fabs(double(cells[c]) - value) <= limit);
        }
    }
    return s;
}

// The code that forms its angles as `pipeline` does.
QString codeWords(const Pipeline &pipeline)
{
    if ((pipeline.stages & Product) && (pipeline.stages & InvFreq) && pipeline.bfloat16)
        return u"as candle's RotaryEmbedding::new did before huggingface/candle#3005 (inv_freq and t cast to the "
               "model's dtype, t.matmul, cos) and transformers' LlamaRotaryEmbedding.forward under a bf16 autocast "
               "before huggingface/transformers#29285 (the matmul's operands and result in bf16)"_s;
    if ((pipeline.stages & Product) && (pipeline.stages & InvFreq))
        return u"as GPT-NeoX's RotaryEmbedding.forward computes it for a model in half (EleutherAI/gpt-neox#1003: "
               "the inv_freq buffer, t = arange(seq_len).type_as(inv_freq) and the einsum in fp16), and an fp16 "
               "autocast around transformers' forward before huggingface/transformers#29285"_s;
    if (pipeline.stages == Product)
        return u"the angles cast to the model's dtype before cos and sin (emb.to(dtype).cos())"_s;
    if (pipeline.stages == InvFreq)
        return u"inv_freq cast to the model's dtype before the einsum, as sglang-jax's RotaryEmbedding.__call__ did "
               "before sgl-project/sglang-jax#1473"_s;
    return u"the position ids cast to the model's dtype (t.type_as(inv_freq) of a model in half)"_s;
}

} // namespace

double rounded(double x, bool bfloat16)
{
    x = double(float(x));
    if (x == 0.0 || !std::isfinite(x))
        return x;
    const int bits = bfloat16 ? 7 : 10; // explicit mantissa bits
    const int minExponent = bfloat16 ? -126 : -14;
    const double quantum = std::ldexp(1.0, std::max(std::ilogb(x), minExponent) - bits);
    const double r = std::nearbyint(x / quantum) * quantum;
    if (!bfloat16 && std::fabs(r) > kFloat16Largest)
        return std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

double angle(const Pipeline &pipeline, double w, std::int64_t p)
{
    double inv = double(float(w));
    if (pipeline.stages & InvFreq)
        inv = rounded(inv, pipeline.bfloat16);
    double position = double(float(p));
    if (pipeline.stages & Positions)
        position = rounded(position, pipeline.bfloat16);
    double a = double(float(position * inv));
    if (pipeline.stages & Product)
        a = rounded(a, pipeline.bfloat16);
    return a;
}

QString pipelineWords(const Pipeline &pipeline)
{
    const QString format = formatWord(pipeline.bfloat16);
    if (pipeline.stages == Product)
        return u"the angles p·inv_freq, formed in float32, rounded to %1 before cos and sin"_s.arg(format);
    QStringList rounded;
    if (pipeline.stages & Positions)
        rounded.append(u"the positions"_s);
    if (pipeline.stages & InvFreq)
        rounded.append(u"inv_freq"_s);
    if (pipeline.stages & Product)
        rounded.append(u"their product p·inv_freq"_s);
    const QString last = rounded.takeLast();
    const QString named = rounded.isEmpty() ? last : u"%1 and %2"_s.arg(rounded.join(u", "_s), last);
    if (pipeline.stages & Product)
        return u"%1 rounded to %2, cos and sin taken of the rounded angle"_s.arg(named, format);
    return u"%1 rounded to %2 before the angles were formed in float32"_s.arg(named, format);
}

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table,
                               const std::vector<std::int64_t> &deviatingRows)
{
    const auto *reference = dynamic_cast<const PairReference *>(declared.reference.get());
    if (!reference || reference->cols() != table.cols() || deviatingRows.empty())
        return std::nullopt;
    const PairReferenceSpec &spec = reference->spec();
    if (spec.positionRounding != PositionRounding::None)
        return std::nullopt;
    const auto rows = readRows(table, deviatingRows);
    if (!rows)
        return std::nullopt;
    std::int64_t lastPosition = 0;
    for (const std::int64_t row : rows->rows)
        lastPosition = spec.compared(row) ? std::max(lastPosition, spec.position(row)) : lastPosition;
    // The tolerance of the table's format with float32 angles', for every pipeline and the declared
    // reference alike: the pipelines form their angles in float32 from operands that may be a unit
    // from the code's.
    const ValueFormat format = representableFormat(rows->values.data(), std::int64_t(rows->values.size()));
    const CellTolerance tolerance = cellTolerance(format, true, table.storedType(), table.textRounding(), spec);
    const HalfAngleScore exact
        = scoreRows(*rows, spec, tolerance, [](double w, std::int64_t p) { return double(p) * w; });
    std::optional<std::pair<Pipeline, HalfAngleScore>> best;
    std::vector<Pipeline> tied; // every pipeline as good as the best, in the order tried
    for (const bool bfloat16 : {true, false}) {
        if (!bfloat16 && lastPosition > kFloat16Largest)
            continue;
        for (const unsigned stages : kPipelines) {
            // Positions the format holds exactly round to themselves: that pipeline is the one without.
            if ((stages & Positions) && lastPosition < exactPositions(bfloat16))
                continue;
            const Pipeline pipeline {stages, bfloat16};
            const HalfAngleScore s = scoreRows(*rows, spec, tolerance,
                                               [&pipeline](double w, std::int64_t p) { return angle(pipeline, w, p); });
            if (!best || s.bad < best->second.bad) {
                best.emplace(pipeline, s);
                tied.clear();
            }
            if (s.bad == best->second.bad)
                tied.push_back(pipeline);
        }
    }
    if (!best || best->second.bad >= exact.bad || best->second.bad * kCellsPerStray > best->second.compared)
        return std::nullopt;
    const Pipeline &pipeline = best->first;
    TableMatch m = declared;
    m.mistakes = {CheckMistakes::kHalfPrecisionAngles};
    m.notes.prepend(m.diagnosis);
    const std::int64_t firstRow = deviatingRows.front();
    QString unshown;
    if (!(pipeline.stages & Positions) && lastPosition < exactPositions(pipeline.bfloat16))
        unshown = u" (%1 holds every position up to %2 exactly: whether the positions were rounded too does not "
                  "show)"_s.arg(formatWord(pipeline.bfloat16))
                      .arg(lastPosition);
    QString how = pipeline.stages == Positions
        ? CheckDiagnosis::halfPrecisionLine(pipeline.bfloat16 ? PositionRounding::BFloat16 : PositionRounding::Float16)
        : u"%1%2, %3"_s.arg(pipelineWords(pipeline), unshown, codeWords(pipeline));
    // Pipelines that give the same cells (a stage the table's storage rounds away): each said, none
    // claimed.
    if (tied.size() > 1) {
        QStringList each;
        for (const Pipeline &p : tied)
            each.append(pipelineWords(p));
        how = u"%1 (these give the same cells here: which of them the code did does not show)"_s.arg(
            each.join(u"; or "_s));
    }
    m.diagnosis = u"the angles were formed in half precision: %1; the error first exceeds the rounding at position "
                  "%2 (row %3). The correct line forms each angle in float32 and rounds only cos and sin to the "
                  "model's dtype (transformers' LlamaRotaryEmbedding.forward: autocast disabled, "
                  "cos().to(x.dtype)), as %5 %4 does"_s.arg(how)
                      .arg(spec.position(firstRow))
                      .arg(firstRow)
                      .arg(declared.referenceText, DeclaredWords::the());
    m.notes.append(u"%1 of the %2 cells compared (the sample's rows and the first rows that deviate) equal this "
                   "computation; %3 equal %4"_s.arg(best->second.compared - best->second.bad)
                       .arg(best->second.compared)
                       .arg(exact.compared - exact.bad)
                       .arg(DeclaredWords::reference()));
    return m;
}

} // namespace posenc::RopeHalfAngles
