// ALiBi's bias tensors (AlibiBiasTensors.h).
#include "check/alibi/AlibiBiasTensors.h"

#include "check/TensorShapes.h"
#include "check/alibi/AlibiSlopeVector.h"
#include "core/Params.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::AlibiBiasTensors {

namespace {

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
    const std::vector<std::int64_t> dims = TensorShapes::notOne(shape);
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

bool combineHeads(const std::vector<std::int64_t> &shape, const TableRows &rows, const std::vector<TableMatch> &slices,
                  TableMatch &combined)
{
    const auto count = std::int64_t(slices.size());
    const std::int64_t length = shape[shape.size() - 2];
    const std::int64_t heads = shape[shape.size() - 3];
    const auto slopes = headSlopes(rows, count, length);
    if (!slopes || heads < 1)
        return false;
    TableMatch &m = combined;
    std::vector<double> first(slopes->begin(), slopes->begin() + std::min<std::int64_t>(heads, count));
    TableMatch s = AlibiSlopeVector::check(first, rows.storedType(), heads);
    if (s.verdict != CheckVerdict::Correct) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = s.mistakes;
        m.diagnosis = u"the heads' slopes: "_s + s.diagnosis;
        m.notes.prepend(s.notes.value(0));
        return true;
    }
    if (TensorShapes::verdictRank(m.verdict) <= TensorShapes::verdictRank(CheckVerdict::Variant)) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = s.correctAgainst + u", head by head"_s;
        m.diagnosis = s.diagnosis + u"; each head's bias: "_s + slices.front().diagnosis;
        m.findings.clear();
        for (const MatchField &field : slices.front().findings) {
            if (field.key != u"heads"_s && field.key != u"head"_s && field.key != u"slope"_s)
                m.findings.append(field);
        }
        m.findings.append({u"heads"_s, heads});
    }
    return false;
}

} // namespace posenc::AlibiBiasTensors
