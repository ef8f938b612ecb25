#include "RopeHalfCache.h"

#include "check/PairReference.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::RopeHalfCache {

namespace {

// The sample with each column read twice, cat(v, v): the HF half layout of the cache's frequencies.
TableSample widened(const TableSample &s)
{
    TableSample w = s;
    const std::int64_t h = s.cols();
    w.values.resize(s.values.rows(), 2 * h);
    w.values.leftCols(h) = s.values;
    w.values.rightCols(h) = s.values;
    if (s.cellRounding.size() > 0) {
        w.cellRounding.resize(s.cellRounding.rows(), 2 * h);
        w.cellRounding.leftCols(h) = s.cellRounding;
        w.cellRounding.rightCols(h) = s.cellRounding;
    }
    return w;
}

// A reference of the widened table narrowed to its first `cols` columns: the file's.
std::shared_ptr<const TableReference> narrowed(const std::shared_ptr<const TableReference> &reference,
                                               std::int64_t cols)
{
    const auto *pairs = dynamic_cast<const PairReference *>(reference.get());
    if (!pairs)
        return nullptr;
    PairReferenceSpec spec = pairs->spec();
    spec.columns.resize(std::size_t(cols));
    spec.kernelLayout.reset();
    return std::make_shared<const PairReference>(std::move(spec));
}

} // namespace

bool mayHold(const TableEvidence &e)
{
    const TableSample &s = e.sample;
    const std::int64_t row0 = s.indexOf(0), row1 = s.indexOf(1);
    if (e.cols() < 2 || row0 < 0 || row1 < 0 || e.sameRow || e.infinite)
        return false;
    const float first = s.values(row0, 0);
    if (!(first == 0.0f || first > 0.0f))
        return false;
    for (std::int64_t c = 1; c < e.cols(); ++c) {
        if (s.values(row0, c) != first)
            return false;
    }
    // The amplitude: the cos cache's row 0, else (a sin cache) the largest cell.
    const float amplitude = first > 0.0f ? first : s.values.cwiseAbs().maxCoeff();
    if (!(amplitude > 0.0f && s.values.cwiseAbs().maxCoeff() <= amplitude * (1.0f + 1e-3f)))
        return false;
    // Position 1 turns each pair by its frequency, slower along the columns: cos(w_i) rises, sin(w_i)
    // falls and stays positive (a padding row of zeros before a sinusoid or a learned table does not).
    const float slack = 1e-3f * amplitude;
    for (std::int64_t c = 1; c < e.cols(); ++c) {
        const float before = s.values(row1, c - 1), here = s.values(row1, c);
        if (first > 0.0f ? here < before - slack : (here > before + slack || here < -slack))
            return false;
    }
    return true;
}

std::optional<TableCandidate> read(const TableEvidence &e, const FitWidened &fit, const MatchOf &match)
{
    if (!mayHold(e))
        return std::nullopt;
    const std::optional<RopeFit::Fit> found = fit(widened(e.sample));
    if (!found || found->hypothesis.params.rope.layout != RopeLayout::Half
        || !explains(found->score.compared, found->bad()))
        return std::nullopt;
    TableCandidate c;
    c.compared = found->score.compared / 2;
    c.bad = (found->bad() + 1) / 2;
    c.claims = true;
    c.match = match(*found);
    const std::int64_t h = e.cols();
    c.match.reference = narrowed(c.match.reference, h);
    if (!c.match.reference)
        return std::nullopt;
    c.match.tolerance = cellTolerance(e.format, found->float32Angles, e.table.storedType(), e.table.textRounding(),
                                      static_cast<const PairReference &>(*c.match.reference).spec());
    if (c.match.asRead) {
        c.match.asRead = narrowed(c.match.asRead, h);
        if (c.match.asRead)
            c.match.asReadTolerance
                = cellTolerance(e.format, found->float32Angles, e.table.storedType(), e.table.textRounding(),
                                static_cast<const PairReference &>(*c.match.asRead).spec());
    }
    c.match.notes.prepend(u"%1 columns, half of rotary_dim %2: read as RoPE's cache of the frequencies' %3 before they "
                          "are repeated for both columns of a pair (candle's cos and sin buffers, [L, rotary_dim / 2]; "
                          "each half of vLLM's cos_sin_cache), compared column for column with the first half of the "
                          "HF table of rotary_dim %2"_s.arg(h)
                              .arg(2 * h)
                              .arg(found->hypothesis.cosine ? u"cos"_s : u"sin"_s));
    return c;
}

} // namespace posenc::RopeHalfCache
