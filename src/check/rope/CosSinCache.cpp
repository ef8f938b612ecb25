#include "check/rope/CosSinCache.h"

#include "check/CellTolerance.h"
#include "check/TensorShapes.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::CosSinCache {

namespace {

// The rows sampled for the layout: spread over the table, the first and the last among them.
constexpr std::int64_t kSampleRows = 256;

// How far cos² + sin² of one pair may be from another pair's in a faithful cache: a few units of
// the cells' format (each of cos and sin rounded once), and a text table's written digits. The
// format is the values' own, as the rope-cos check reads it (representableFormat): a cache rounded
// to bfloat16 or float16 and saved as float32 (`cache.float().numpy()`) is off the circle by that
// format's units, not float32's.
double circleTolerance(const TableRows &rows, ValueFormat values)
{
    const ValueFormat stored = storedFormat(rows.storedType());
    const ValueFormat format = stored == ValueFormat::Float32 ? values : stored;
    double unit = std::ldexp(1.0, -22);
    if (format == ValueFormat::Float16)
        unit = std::ldexp(1.0, -9);
    else if (format == ValueFormat::BFloat16)
        unit = std::ldexp(1.0, -6);
    return 4.0 * unit + 4.0 * rows.textRounding();
}

// A half of the cache, widened: columns [offset, offset + pairs) each read twice; or, `asIs`, those
// columns as they are (HF's cos and sin tables side by side, each already repeated for its pairs).
class HalfRows final : public TableRows
{
public:
    HalfRows(std::shared_ptr<const TableRows> rows, bool sines, bool interleaved, bool asIs)
        : m_rows(std::move(rows))
        , m_sines(sines)
        , m_interleaved(interleaved)
        , m_asIs(asIs)
    { }
    std::int64_t rows() const override { return m_rows->rows(); }
    std::int64_t cols() const override { return m_asIs ? m_rows->cols() / 2 : m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_rows->name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t width = m_rows->cols(), pairs = width / 2;
        std::vector<float> whole(static_cast<std::size_t>(count * width));
        if (!m_rows->read(row0, count, whole.data(), error))
            return false;
        for (std::int64_t r = 0; r < count; ++r) {
            const float *in = whole.data() + r * width + (m_sines ? pairs : 0);
            if (m_asIs) {
                std::copy(in, in + pairs, out + r * pairs);
                continue;
            }
            float *row = out + r * width;
            for (std::int64_t c = 0; c < pairs; ++c) {
                if (m_interleaved) {
                    row[2 * c] = in[c];
                    row[2 * c + 1] = in[c];
                } else {
                    row[c] = in[c];
                    row[pairs + c] = in[c];
                }
            }
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    bool m_sines, m_interleaved, m_asIs;
};

} // namespace

bool holds(const TableRows &rows)
{
    const std::int64_t width = rows.cols(), count = rows.rows();
    if (width < 4 || width % 2 != 0 || count < 2)
        return false;
    const std::int64_t pairs = width / 2;
    const std::int64_t sampled = std::min(count, kSampleRows);
    std::vector<float> row(static_cast<std::size_t>(width));
    QString error;
    // Measured first, weighed against the values' format once every sampled row is read: the
    // largest spread of cos² + sin² within a row (relative to the row's largest), and the largest
    // difference of a pair's cos and sin. A row both half formats hold (zeros and ones) counts as
    // bfloat16's; rows of the two formats mixed take float16's unit.
    double spread = 0.0, differ = 0.0;
    bool bfloat = true, half = true;
    std::int64_t cosFirst = 0;
    for (std::int64_t k = 0; k < sampled; ++k) {
        const std::int64_t r = sampled == 1 ? 0 : k * (count - 1) / (sampled - 1);
        if (!rows.read(r, 1, row.data(), error))
            return false;
        const ValueFormat format = representableFormat(row.data(), width);
        bfloat = bfloat && format == ValueFormat::BFloat16;
        half = half && format != ValueFormat::Float32;
        double low = INFINITY, high = -INFINITY;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const double c = row[std::size_t(i)], s = row[std::size_t(pairs + i)];
            if (!std::isfinite(c) || !std::isfinite(s))
                return false;
            const double r2 = c * c + s * s;
            low = std::min(low, r2);
            high = std::max(high, r2);
            differ = std::max(differ, std::fabs(c - s) / std::max(1.0, std::sqrt(r2)));
        }
        if (!(high > 0.0))
            return false;
        spread = std::max(spread, (high - low) / high);
        if (std::fabs(row[std::size_t(pairs - 1)]) >= std::fabs(row[std::size_t(width - 1)]))
            ++cosFirst;
    }
    const ValueFormat values = bfloat ? ValueFormat::BFloat16 : half ? ValueFormat::Float16 : ValueFormat::Float32;
    const double allowed = circleTolerance(rows, values);
    return !(spread > allowed) && differ > allowed && 2 * cosFirst > sampled;
}

std::shared_ptr<const TableRows> half(std::shared_ptr<const TableRows> rows, bool sines, bool interleaved)
{
    // HF's cos and sin tables side by side ([L, 2 rotary_dim], the two caches given together): each
    // half is already the table of its frequencies, its columns repeated for both of a pair, and is
    // read as it is; widened, it would be four copies of half the pairs, no RoPE table of its width.
    auto asIs = std::make_shared<HalfRows>(rows, sines, interleaved, true);
    if (TensorShapes::columnsRepeatInPairs(*asIs))
        return asIs;
    return std::make_shared<HalfRows>(std::move(rows), sines, interleaved, false);
}

TableMatch combine(TableMatch cos, TableMatch sin, std::int64_t pairs, bool interleaved)
{
    const bool sinWorse = TensorShapes::verdictRank(sin.verdict) > TensorShapes::verdictRank(cos.verdict);
    TableMatch m = sinWorse ? std::move(sin) : std::move(cos);
    const TableMatch &other = sinWorse ? cos : sin;
    const QString which = sinWorse ? u"sin"_s : u"cos"_s;
    const QString columns = u"columns %1..%2"_s.arg(sinWorse ? pairs : 0).arg((sinWorse ? pairs : 0) + pairs - 1);
    const QString otherColumns = u"columns %1..%2"_s.arg(sinWorse ? 0 : pairs).arg((sinWorse ? 0 : pairs) + pairs - 1);
    for (const QString &id : other.mistakes) {
        if (!m.mistakes.contains(id))
            m.mistakes.append(id);
    }
    QString otherWords = CheckWords::verdict(other.verdict);
    if (other.verdict != CheckVerdict::Correct && !other.diagnosis.isEmpty())
        otherWords += u": "_s + other.diagnosis;
    m.notes.prepend(u"the %1 half (%2) is %3"_s.arg(sinWorse ? u"cos"_s : u"sin"_s, otherColumns, otherWords));
    // HF's two tables side by side (half()): each half read as it is.
    const bool asIs = m.reference && m.reference->cols() == pairs;
    if (asIs)
        m.notes.prepend(
            u"HF's cos and sin tables side by side, cat(cos, sin) along the last dimension (each half "
            "the table LlamaRotaryEmbedding returns, rotary_dim %1 wide): each checked as it is (a column c "
            "the report names is the file's c of the %2 half)"_s.arg(pairs)
                .arg(which));
    else
        m.notes.prepend(u"a cos|sin cache, cat(cos(freqs), sin(freqs)) along the last dimension as vLLM keeps it "
                        "(vllm/model_executor/layers/rotary_embedding.py, RotaryEmbedding._compute_cos_sin_cache): "
                        "each half of %1 pairs checked as the table it stands for, each column repeated for both "
                        "columns of its pair (a column c the report names is the file's %2 of the %3 half)"_s.arg(pairs)
                            .arg(interleaved ? u"c / 2"_s : u"c mod %1"_s.arg(pairs), which));
    if (m.verdict != CheckVerdict::Correct)
        m.diagnosis = u"the %1 half (%2): %3"_s.arg(which, columns, m.diagnosis);
    else
        m.correctAgainst += u", the cos and sin halves of a cos|sin cache"_s;
    if (m.worstColumn)
        m.worstColumn = (asIs              ? *m.worstColumn
                             : interleaved ? *m.worstColumn / 2
                                           : *m.worstColumn % pairs)
            + (sinWorse ? pairs : 0);
    return m;
}

} // namespace posenc::CosSinCache
