#include "check/TensorShapes.h"

#include "check/alibi/AlibiSlopeVector.h"
#include "check/rope/RopeInvFreq.h"
#include "check/t5/T5BiasStack.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TensorShapes {

namespace {

// A vector longer than any rotary_dim / 2 or heads is no vector this check reads.
constexpr std::int64_t kMaxVector = std::int64_t(1) << 20;
// A stack of more slices is refused: each is identified from a sample of its own.
constexpr std::int64_t kMaxSlices = 65536;

std::vector<std::int64_t> notOne(const std::vector<std::int64_t> &shape)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1)
            dims.push_back(d);
    }
    return dims;
}

// The rows [first, first + count) of a table: a slice of a stack.
class SliceRows final : public TableRows
{
public:
    SliceRows(std::shared_ptr<const TableRows> rows, std::int64_t first, std::int64_t count, QString name)
        : m_rows(std::move(rows))
        , m_first(first)
        , m_count(count)
        , m_name(std::move(name))
    { }
    std::int64_t rows() const override { return m_count; }
    std::int64_t cols() const override { return m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_name; }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        return m_rows->read(m_first + row0, count, out, error);
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    std::int64_t m_first, m_count;
    QString m_name;
};

// A table of half the columns, each read twice: cat((x, x)) or x's columns interleaved.
class WidenedRows final : public TableRows
{
public:
    WidenedRows(std::shared_ptr<const TableRows> rows, bool interleaved)
        : m_rows(std::move(rows))
        , m_interleaved(interleaved)
    { }
    std::int64_t rows() const override { return m_rows->rows(); }
    std::int64_t cols() const override { return 2 * m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_rows->name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t half = m_rows->cols();
        std::vector<float> narrow(static_cast<std::size_t>(count * half));
        if (!m_rows->read(row0, count, narrow.data(), error))
            return false;
        for (std::int64_t r = 0; r < count; ++r) {
            const float *in = narrow.data() + r * half;
            float *row = out + r * 2 * half;
            for (std::int64_t c = 0; c < half; ++c) {
                if (m_interleaved) {
                    row[2 * c] = in[c];
                    row[2 * c + 1] = in[c];
                } else {
                    row[c] = in[c];
                    row[half + c] = in[c];
                }
            }
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    bool m_interleaved;
};

// Each slice's ALiBi slope, read where every mask has it: row 1, column 0 holds -m.
std::optional<std::vector<double>> headSlopes(const TableRows &rows, std::int64_t count, std::int64_t length)
{
    if (length < 2)
        return std::nullopt;
    std::vector<double> slopes;
    std::vector<float> row(static_cast<std::size_t>(rows.cols()));
    QString error;
    for (std::int64_t s = 0; s < count; ++s) {
        if (!rows.read(s * length + 1, 1, row.data(), error))
            return std::nullopt;
        slopes.push_back(-double(row[0]));
    }
    return slopes;
}

} // namespace

std::optional<std::pair<std::int64_t, bool>> declaredWidth(Encoding family, const Params &p)
{
    if (family == Encoding::Rope)
        return std::pair {RopeFrequencies::rotaryDim(p.rope), p.rope.layout == RopeLayout::Interleaved};
    if (family == Encoding::Rope2d
        && (p.rope2d.style == Rope2dStyle::Pixtral || p.rope2d.style == Rope2dStyle::QwenVit))
        return std::pair {p.rope.headDim, false};
    return std::nullopt;
}

int verdictRank(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Correct:
        return 0;
    case CheckVerdict::Variant:
        return 1;
    case CheckVerdict::Learned:
        return 2;
    case CheckVerdict::Unknown:
        return 3;
    case CheckVerdict::Mistake:
        return 4;
    }
    return 3;
}

Kind kindOf(const std::vector<std::int64_t> &shape)
{
    if (shape.empty())
        return Kind::Refused;
    const std::vector<std::int64_t> dims = notOne(shape);
    // [H, 1, L] is also PyTorch's (max_len, 1, d) buffer: key biases are tried first (rows affine
    // in the key, which no table of positions has), the caller reading a table where they fail.
    const bool keyRows = shape.size() >= 3 && shape[shape.size() - 2] == 1 && shape.back() > 1;
    if (keyRows)
        return Kind::KeyBiases;
    if (shape.size() == 1)
        return Kind::Vector;
    if (shape.size() == 2 || dims.size() == 2)
        return Kind::Table;
    if (dims.size() <= 1)
        return Kind::Vector;
    if (slices(shape) > kMaxSlices)
        return Kind::Refused;
    return Kind::Stack;
}

QString acceptedShapes()
{
    return u"the shapes accepted: a table L x d (dimensions of 1 aside); a vector [n] (RoPE's inv_freq of "
           "rotary_dim / 2, ALiBi's slopes of H heads; also [H, 1, 1], [1, H, 1, 1]); ALiBi's key biases [H, 1, L], "
           "[B·H, 1, L], [1, H, 1, L] (BLOOM, MPT); a stack of tables, each slice checked: [B, L, d] caches, "
           "[H, L, L], [1, H, L, L], [B, H, L, L] biases (T5's position_bias read per bucket), [B, H, L, D] and "
           "[3, B, L, D] caches (at most %1 slices)"_s.arg(kMaxSlices);
}

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList parts;
    for (const std::int64_t d : shape)
        parts.append(QString::number(d));
    return u"("_s + parts.join(u", "_s) + (shape.size() == 1 ? u",)"_s : u")"_s);
}

std::variant<std::vector<double>, QString> readVector(const TableRows &rows)
{
    const std::int64_t n = rows.rows() * rows.cols();
    if (n < 1 || n > kMaxVector)
        return u"a vector of %1 values; the vectors read are 1 to %2 long"_s.arg(n).arg(kMaxVector);
    std::vector<float> values(static_cast<std::size_t>(n));
    QString error;
    if (!rows.read(0, rows.rows(), values.data(), error))
        return error;
    for (const float x : values) {
        if (std::isnan(x))
            return u"the vector holds NaN"_s;
    }
    return std::vector<double>(values.begin(), values.end());
}

TableMatch checkVector(const std::vector<double> &v, StoredType stored, const VectorDeclaration &declared)
{
    if (declared.family == Encoding::Rope)
        return RopeInvFreq::expect(v, stored, declared.params);
    if (declared.family == Encoding::Alibi)
        return AlibiSlopeVector::check(v, stored, declared.heads.value_or(std::int64_t(v.size())));
    if (declared.family) {
        TableMatch m;
        m.verdict = CheckVerdict::Unknown;
        m.diagnosis = u"a vector is RoPE's inv_freq (--expect rope) or ALiBi's slopes (--expect alibi)"_s;
        return m;
    }
    std::optional<TableMatch> slopes, inv;
    if (AlibiSlopeVector::plausible(v))
        slopes = AlibiSlopeVector::check(v, stored, std::nullopt);
    if (RopeInvFreq::plausible(v))
        inv = RopeInvFreq::identify(v, stored);
    // get_slopes' own values first, then a model's inv_freq, then a named slope mistake (2^(-8k/H)
    // at H no power of two is linear RoPE at theta 256 only by accident), then inv_freq's named
    // mistake (a model's vector rounded to bfloat16) or its formula.
    if (slopes && slopes->verdict == CheckVerdict::Correct)
        return *slopes;
    if (inv && inv->verdict == CheckVerdict::Correct)
        return *inv;
    if (slopes && slopes->verdict == CheckVerdict::Mistake)
        return *slopes;
    if (inv && (inv->verdict == CheckVerdict::Mistake || inv->verdict == CheckVerdict::Variant))
        return *inv;
    TableMatch m = inv ? *inv : slopes ? *slopes : TableMatch();
    m.verdict = CheckVerdict::Unknown;
    if (!inv && !slopes)
        m.diagnosis = u"a vector of %1 values that is neither RoPE's inv_freq (positive, at most 1 at pair 0) nor "
                      "ALiBi's slopes (in (0, 1])"_s.arg(v.size());
    return m;
}

std::optional<TableMatch> keyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                    std::optional<std::int64_t> heads)
{
    const std::int64_t length = shape.back();
    const std::int64_t count = rows.rows();
    if (length < 2 || count < 1 || count > AlibiParams::kMaxHeads * 64)
        return std::nullopt;
    std::vector<float> row(static_cast<std::size_t>(length));
    std::vector<double> slopes;
    QString error;
    // BLOOM: m·j (keys from 0); MPT: m·(j − (L − 1)) (the last key 0).
    std::optional<bool> bloom;
    for (std::int64_t r = 0; r < count; ++r) {
        if (!rows.read(r, 1, row.data(), error))
            return std::nullopt;
        const bool fromZero = row[0] == 0.0f;
        if (bloom && *bloom != fromZero)
            return std::nullopt;
        bloom = fromZero;
        const double offset = fromZero ? 0.0 : -double(length - 1);
        const double m = fromZero ? double(row[std::size_t(length - 1)]) / double(length - 1)
                                  : -double(row[0]) / double(length - 1);
        for (std::int64_t j = 0; j < length; ++j) {
            const double exact = m * (double(j) + offset);
            if (std::fabs(double(row[std::size_t(j)]) - exact) > 1e-6 * std::fabs(exact) + 1e-30)
                return std::nullopt;
        }
        slopes.push_back(m);
    }
    // Heads repeated per batch (BLOOM's [B·H, 1, L]): H declared, or the dimension before the
    // 1 in [B, H, 1, L], or else the rows' period (the slopes repeating every H rows).
    const std::vector<std::int64_t> dims = notOne(shape);
    std::int64_t h = heads.value_or(dims.size() >= 3 ? dims[dims.size() - 2] : count);
    const auto repeats = [&](std::int64_t period) {
        for (std::int64_t r = period; r < count; ++r) {
            if (slopes[std::size_t(r)] != slopes[std::size_t(r % period)])
                return false;
        }
        return true;
    };
    if (!heads && dims.size() < 3) {
        for (std::int64_t p = 1; p < count; ++p) {
            if (count % p == 0 && repeats(p)) {
                h = p;
                break;
            }
        }
    }
    if (h < 1 || count % h != 0 || !repeats(h))
        return std::nullopt;
    slopes.resize(std::size_t(h));
    TableMatch m = AlibiSlopeVector::check(slopes, rows.storedType(), h);
    m.table = u"alibi-key-bias"_s;
    if (count > h)
        m.notes.prepend(u"the rows are %1 batches of %2 heads%3"_s.arg(count / h).arg(h).arg(
            heads ? QString() : u" (their slopes repeat every %1 rows; --heads declares another H)"_s.arg(h)));
    m.notes.prepend(u"%1 rows of %2 keys, each its head's slope times %3 (%4)"_s.arg(count).arg(length).arg(
        *bloom ? u"the key's position j"_s : u"j − (L − 1)"_s,
        *bloom ? u"BLOOM's build_alibi_tensor"_s : u"MPT's build_mpt_alibi_tensor"_s));
    return m;
}

std::int64_t slices(const std::vector<std::int64_t> &shape)
{
    std::int64_t n = 1;
    for (std::size_t i = 0; i + 2 < shape.size(); ++i)
        n *= shape[i];
    return n;
}

QString sliceLabel(const std::vector<std::int64_t> &shape, std::int64_t index)
{
    QStringList parts;
    std::int64_t rest = index;
    std::vector<std::int64_t> at(shape.size() >= 2 ? shape.size() - 2 : 0);
    for (std::size_t k = at.size(); k-- > 0;) {
        at[k] = rest % shape[k];
        rest /= shape[k];
    }
    for (const std::int64_t i : at)
        parts.append(QString::number(i));
    return u"["_s + parts.join(u", "_s) + u"]"_s;
}

std::shared_ptr<const TableRows> slice(std::shared_ptr<const TableRows> rows, std::int64_t index, std::int64_t length,
                                       const QString &label)
{
    const QString name = rows->name() + label;
    return std::make_shared<SliceRows>(std::move(rows), index * length, length, name);
}

TableMatch combine(const std::vector<std::int64_t> &shape, const TableRows &rows, std::vector<TableMatch> matches)
{
    const auto count = std::int64_t(matches.size());
    std::int64_t worst = 0;
    for (std::int64_t i = 1; i < count; ++i) {
        if (verdictRank(matches[std::size_t(i)].verdict) > verdictRank(matches[std::size_t(worst)].verdict))
            worst = i;
    }
    TableMatch m = matches[std::size_t(worst)];
    const std::int64_t length = shape.size() >= 2 ? shape[shape.size() - 2] : 0;
    const bool square = shape.size() >= 3 && length == shape.back();
    const bool alibi = square
        && std::all_of(matches.begin(), matches.end(), [](const TableMatch &x) { return x.family == Encoding::Alibi; });
    if (alibi) {
        const std::int64_t heads = shape[shape.size() - 3];
        if (const auto slopes = headSlopes(rows, count, length); slopes && heads >= 1) {
            std::vector<double> first(slopes->begin(), slopes->begin() + std::min<std::int64_t>(heads, count));
            TableMatch s = AlibiSlopeVector::check(first, rows.storedType(), heads);
            if (s.verdict != CheckVerdict::Correct) {
                m.verdict = CheckVerdict::Mistake;
                m.mistakes = s.mistakes;
                m.diagnosis = u"the heads' slopes: "_s + s.diagnosis;
                m.notes.prepend(s.notes.value(0));
            } else if (verdictRank(m.verdict) <= verdictRank(CheckVerdict::Variant)) {
                m.verdict = CheckVerdict::Correct;
                m.correctAgainst = s.correctAgainst + u", head by head"_s;
                m.diagnosis = s.diagnosis + u"; each head's bias: "_s + matches.front().diagnosis;
                m.findings.clear();
                for (const MatchField &field : matches.front().findings) {
                    if (field.key != u"heads"_s && field.key != u"head"_s && field.key != u"slope"_s)
                        m.findings.append(field);
                }
                m.findings.append({u"heads"_s, heads});
            }
        }
    }
    const QString label = sliceLabel(shape, worst);
    m.notes.prepend(u"%1 slices of %2 x %3 (shape %4), each checked as a table; %5"_s.arg(count)
                        .arg(length)
                        .arg(shape.back())
                        .arg(shapeText(shape),
                             m.verdict == CheckVerdict::Correct
                                 ? u"every one correct"_s
                                 : u"the first of the worst verdict: slice %1"_s.arg(label)));
    if (m.verdict != CheckVerdict::Correct && !m.diagnosis.startsWith(u"the heads'"_s))
        m.diagnosis = u"slice %1: %2"_s.arg(label, m.diagnosis);
    if (m.worstRow && !alibi)
        m.worstRow = *m.worstRow + worst * length;
    return m;
}

bool halfWidth(Encoding family, const Params &declared, std::int64_t cols)
{
    const auto width = declaredWidth(family, declared);
    return width && cols >= 1 && width->first == 2 * cols;
}

std::shared_ptr<const TableRows> widened(std::shared_ptr<const TableRows> rows, Encoding family, const Params &declared)
{
    const auto width = declaredWidth(family, declared);
    return std::make_shared<WidenedRows>(std::move(rows), width && width->second);
}

QStringList mistakeIds()
{
    return RopeInvFreq::mistakeIds() + AlibiSlopeVector::mistakeIds() + T5BiasStack::mistakeIds();
}

} // namespace posenc::TensorShapes
