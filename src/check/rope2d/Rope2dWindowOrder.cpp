#include "Rope2dWindowOrder.h"

#include "core/rope2d/Rope2dRotation.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::Rope2dWindowOrder {

namespace {

// The largest table read whole.
constexpr std::int64_t kMostCells = std::int64_t(1) << 24;

} // namespace

std::vector<std::int64_t> windowIndex(std::int64_t h, std::int64_t w, std::int64_t window)
{
    // index.reshape(h, w) padded to whole windows, permuted (windows_h, windows_w, window, window),
    // the padding's -100 dropped.
    const std::int64_t windowsH = (h + window - 1) / window, windowsW = (w + window - 1) / window;
    std::vector<std::int64_t> order;
    order.reserve(std::size_t(h * w));
    for (std::int64_t a = 0; a < windowsH; ++a)
        for (std::int64_t b = 0; b < windowsW; ++b)
            for (std::int64_t i = 0; i < window; ++i)
                for (std::int64_t j = 0; j < window; ++j) {
                    const std::int64_t row = a * window + i, column = b * window + j;
                    if (row < h && column < w)
                        order.push_back(row * w + column);
                }
    return order;
}

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table)
{
    if (!declared.params || declared.params->encoding != Encoding::Rope2d || !declared.params->isValid()
        || declared.params->rope2d.style != Rope2dStyle::QwenVit || declared.mistakes.size() > 0)
        return std::nullopt;
    const Params &p = *declared.params;
    const std::int64_t m = p.mrope.spatialMergeSize;
    const bool cosine = declared.table == u"rope2d-cos"_s;
    if (m < 2 || (!cosine && declared.table != u"rope2d-sin"_s))
        return std::nullopt;
    const Rope2dRotation rotation(p);
    const std::int64_t rows = table.rows(), cols = table.cols();
    if (rows != rotation.patches() || cols != rotation.headDim() || rows * cols > kMostCells || rotation.rows() % m != 0
        || rotation.columns() % m != 0)
        return std::nullopt;
    RowMatrixXf cells(rows, cols), reference(rows, cols);
    QString error;
    if (!table.read(0, rows, cells.data(), error))
        return std::nullopt;
    rotation.fillTable(cosine, Block {0, rows, 0, cols}, reference);
    const std::int64_t blocksH = rotation.rows() / m, blocksW = rotation.columns() / m, unit = m * m;
    // Whether row k is the reference's row of block order[k / unit], within the declared tolerance
    // and float32 angles' (torch forms ids x inv_freq in float32: a few units of 2^-24 of the angle).
    const std::int64_t pairs = rotation.pairs();
    const auto holds = [&](const std::vector<std::int64_t> &order) {
        for (std::int64_t k = 0; k < rows; ++k) {
            const std::int64_t at = order[std::size_t(k / unit)] * unit + k % unit;
            const auto [r, c] = rotation.patchAt(at);
            for (std::int64_t j = 0; j < cols; ++j) {
                const double want = reference(at, j), got = cells(k, j);
                const double angles = 4.0 * 0x1p-24 * std::fabs(rotation.angle(j % pairs, r, c));
                if (!(got == want || std::fabs(got - want) <= declared.tolerance.limit(want, j, 0.0) + angles))
                    return false;
            }
        }
        return true;
    };
    for (std::int64_t window = 1; window <= std::max(blocksH, blocksW); ++window) {
        const std::vector<std::int64_t> order = windowIndex(blocksH, blocksW, window);
        if (std::is_sorted(order.begin(), order.end()) || !holds(order))
            continue;
        TableMatch u = declared;
        u.verdict = CheckVerdict::Unknown;
        u.correctAgainst.clear();
        u.notes.prepend(u.diagnosis);
        u.diagnosis = u"every row is a row of %1, its %2 x %2 merge blocks listed window by window as Qwen2.5-VL's "
                      "vision encoder lists them (get_window_index: windows of %3 x %3 blocks, window_size / "
                      "spatial_merge_size / patch_size = %3, Qwen2.5-VL's 112 / 2 / 14 = 4; its forward takes "
                      "rotary_pos_emb[window_index]): a published order, but the grid declares rot_pos_emb's; give "
                      "the rows' (row, column) ids with --position-ids and each row is compared at its own"_s
                          .arg(declared.referenceText)
                          .arg(m)
                          .arg(window);
        return u;
    }
    return std::nullopt;
}

} // namespace posenc::Rope2dWindowOrder
