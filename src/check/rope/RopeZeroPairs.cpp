// Where a RoPE table's identity pairs sit, against HF's proportional RoPE (docs/ARCHITECTURE.md,
// Checking a table): found from the columns that never move, the others read as a RoPE table.
#include "RopeZeroPairs.h"

#include "check/CheckDiagnosis.h"
#include "check/rope/RopeFit.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeZeroPairs {

namespace {

// The columns whose every compared row of the sample holds the first compared row's value.
std::vector<std::int64_t> stillColumns(const TableSample &sample, const RowFraming &framing, double tolerance)
{
    std::vector<std::int64_t> rows;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        if (framing.compared(sample.rows[std::size_t(k)]))
            rows.push_back(k);
    }
    std::vector<std::int64_t> still;
    if (rows.size() < 4)
        return still;
    for (std::int64_t c = 0; c < sample.cols(); ++c) {
        const double first = sample.values(rows.front(), c);
        bool same = std::isfinite(first);
        for (std::size_t k = 1; k < rows.size() && same; ++k)
            same = std::fabs(double(sample.values(rows[k], c)) - first) <= tolerance * (1.0 + std::fabs(first));
        if (same)
            still.push_back(c);
    }
    return still;
}

// The sample of `columns` alone, in their order.
TableSample sampleColumns(const TableSample &sample, const std::vector<std::int64_t> &columns)
{
    return sample.withColumns(columns);
}

// HF's column of each turning column (the k-th of 2 live, in `layout`), and its identity columns.
void hfPlaces(Placement &p, const std::vector<std::int64_t> &turning, std::int64_t cols)
{
    const std::int64_t h = cols / 2, live = p.livePairs;
    p.hfColumn.assign(std::size_t(cols), -1);
    std::vector<bool> taken(std::size_t(cols), false);
    for (std::int64_t k = 0; k < 2 * live; ++k) {
        // Half: the first live turning columns are HF's first half's, the next its second half's.
        const std::int64_t to = p.layout == RopeLayout::Half ? (k < live ? k : h + k - live) : k;
        p.hfColumn[std::size_t(turning[std::size_t(k)])] = to;
        taken[std::size_t(to)] = true;
    }
    for (std::int64_t c = 0; c < cols; ++c) {
        if (!taken[std::size_t(c)])
            p.hfIdentity.push_back(c);
    }
    for (std::size_t j = 0; j < p.identity.size(); ++j)
        p.hfColumn[std::size_t(p.identity[j])] = p.hfIdentity[j];
}

std::vector<std::int64_t> columnRange(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> out;
    for (std::int64_t c = from; c < to; ++c)
        out.push_back(c);
    return out;
}

// What the placement is, when it is a known one.
QString placementWords(const Placement &p, std::int64_t cols)
{
    const std::int64_t h = cols / 2, n = h - p.livePairs;
    if (p.identity == columnRange(2 * p.livePairs, cols))
        return u"at the end of the head, where GPT-NeoX's partial rotary passes its columns through "
               u"(modeling_gpt_neox.py, "
               "apply_rotary_pos_emb: query[..., :rotary_ndims] turned, the rest passed)"_s;
    if (p.identity == columnRange(0, cols - 2 * p.livePairs))
        return u"at the start of the head"_s;
    if (p.layout == RopeLayout::Half) {
        std::vector<std::int64_t> starts = columnRange(0, n), second = columnRange(h, h + n);
        starts.insert(starts.end(), second.begin(), second.end());
        if (p.identity == starts)
            return u"at the start of each half, the high-frequency end: inv_freq = cat((zeros, inv_freq_rotated))"_s;
        // Pair k of the half layout in columns k and h + k: every other pair an identity pair.
        bool alternating = n == p.livePairs;
        for (std::int64_t k = 0; k < h && alternating; ++k) {
            const bool identity = std::binary_search(p.identity.begin(), p.identity.end(), k);
            alternating = identity == (k % 2 == 1);
        }
        if (alternating)
            return u"interleaved with the turning pairs, every second pair: inv_freq = stack((inv_freq_rotated, "
                   u"zeros), "
                   "-1).flatten() where cat((inv_freq_rotated, zeros)) belongs"_s;
    }
    return u"elsewhere than HF puts them"_s;
}

} // namespace

std::optional<Placement> misplaced(const TableSample &sample, const RowFraming &framing, double tolerance)
{
    const std::int64_t cols = sample.cols();
    if (cols < 6 || cols % 2 != 0)
        return std::nullopt;
    Placement p;
    p.identity = stillColumns(sample, framing, tolerance);
    const auto n = std::int64_t(p.identity.size());
    if (n < 2 || n % 2 != 0 || cols - n < 4)
        return std::nullopt;
    // One value in every identity column: A cos 0 = A (a cos table), or sin 0 = 0.
    std::int64_t firstRow = 0;
    while (firstRow < sample.size() && !framing.compared(sample.rows[std::size_t(firstRow)]))
        ++firstRow;
    const double value = sample.values(firstRow, p.identity.front());
    for (const std::int64_t c : p.identity) {
        if (!(std::fabs(double(sample.values(firstRow, c)) - value) <= tolerance * (1.0 + std::fabs(value))))
            return std::nullopt;
    }
    p.cosine = std::fabs(value) > tolerance;
    std::vector<std::int64_t> turning;
    for (std::int64_t c = 0; c < cols; ++c) {
        if (!std::binary_search(p.identity.begin(), p.identity.end(), c))
            turning.push_back(c);
    }
    const auto layout = RopeFit::repeatedLayout(sampleColumns(sample, turning), framing, 4.0 * tolerance);
    if (!layout)
        return std::nullopt;
    p.layout = *layout;
    p.livePairs = std::int64_t(turning.size()) / 2;
    hfPlaces(p, turning, cols);
    if (p.identity == p.hfIdentity)
        return std::nullopt;
    return p;
}

TableSample inHfOrder(const TableSample &sample, const Placement &placement)
{
    // Column c goes to HF's place hfColumn[c]: HF's column j holds the column that goes there.
    std::vector<std::int64_t> from(static_cast<std::size_t>(sample.cols()));
    for (std::int64_t c = 0; c < sample.cols(); ++c)
        from[std::size_t(placement.hfColumn[std::size_t(c)])] = c;
    return sample.withColumns(from);
}

QString diagnosis(const Placement &p, std::int64_t cols)
{
    const QString hf = p.layout == RopeLayout::Half
        ? u"at the end of each half, in %1 (_compute_proportional_rope_parameters appends zeros(nope_angles) to "
          "inv_freq, and cat((freqs, freqs)) repeats it in both halves)"_s
        : u"at the end of the head in the interleaved layout, in %1 (_compute_proportional_rope_parameters appends "
          "zeros(nope_angles) to inv_freq, which repeat_interleave keeps last)"_s;
    return u"zero-frequency pairs misplaced: the identity pairs (%1 in every row: frequency 0) sit %2, in %3; HF's "
           "proportional RoPE puts them %4"_s.arg(p.cosine ? u"cos 0 = 1"_s : u"sin 0 = 0"_s, placementWords(p, cols),
                                                  CheckDiagnosis::indexSet(p.identity, cols, u"column"_s),
                                                  hf.arg(CheckDiagnosis::indexSet(p.hfIdentity, cols, u"column"_s)));
}

double identityTolerance(ValueFormat format, double textRounding)
{
    switch (format) {
    case ValueFormat::Float32:
        return 0x1p-23 + textRounding;
    case ValueFormat::Float16:
        return 0x1p-10 + textRounding;
    case ValueFormat::BFloat16:
        return 0x1p-7 + textRounding;
    }
    return 0x1p-23;
}

} // namespace posenc::RopeZeroPairs
