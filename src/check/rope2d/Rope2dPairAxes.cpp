#include "Rope2dPairAxes.h"

#include "check/DeclaredWords.h"
#include "core/rope2d/Rope2dParamRows.h"
#include "core/rope2d/Rope2dRotation.h"

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::Rope2dPairAxes {

namespace {

// The largest table read whole.
constexpr std::int64_t kMostCells = std::int64_t(1) << 24;

QString axisWord(int axis)
{
    return axis == Rope2dRotation::kRow ? u"the row"_s : u"the column"_s;
}

// "even pairs the row, odd ones the column", or the runs: "pairs 0..31 the row, 32..63 the column".
QString splitWords(const std::vector<int> &axes)
{
    bool alternates = axes.size() >= 4;
    for (std::size_t j = 2; j < axes.size() && alternates; ++j)
        alternates = axes[j] == axes[j - 2] && axes[j] != axes[j - 1];
    if (alternates)
        return u"even pairs with %1, odd ones with %2"_s.arg(axisWord(axes[0]), axisWord(axes[1]));
    QStringList runs;
    std::size_t first = 0;
    for (std::size_t j = 1; j <= axes.size(); ++j) {
        if (j < axes.size() && axes[j] == axes[first])
            continue;
        runs.append(j - 1 == first ? u"pair %1 with %2"_s.arg(first).arg(axisWord(axes[first]))
                                   : u"pairs %1..%2 with %3"_s.arg(first).arg(j - 1).arg(axisWord(axes[first])));
        first = j;
    }
    return runs.size() > 6 ? u"%1 runs of pairs, each with one axis"_s.arg(runs.size()) : runs.join(u", "_s);
}

std::int64_t runsOf(const std::vector<int> &axes)
{
    std::int64_t runs = axes.empty() ? 0 : 1;
    for (std::size_t j = 1; j < axes.size(); ++j)
        runs += axes[j] != axes[j - 1] ? 1 : 0;
    return runs;
}

} // namespace

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table)
{
    if (!declared.params || declared.params->encoding != Encoding::Rope2d || !declared.params->isValid())
        return std::nullopt;
    const Params &p = *declared.params;
    const bool cosine = declared.table == u"rope2d-cos"_s;
    if (!cosine && declared.table != u"rope2d-sin"_s)
        return std::nullopt;
    const Rope2dRotation rotation(p);
    const std::int64_t rows = table.rows(), cols = table.cols(), pairs = rotation.pairs();
    if (rows != rotation.patches() || cols != rotation.headDim() || rows * cols > kMostCells)
        return std::nullopt;
    const bool half = p.rope2d.style == Rope2dStyle::QwenVit || p.rope2d.style == Rope2dStyle::Pixtral
        || p.rope2d.style == Rope2dStyle::Hunyuan;
    std::vector<float> cells(static_cast<std::size_t>(rows * cols));
    QString error;
    if (!table.read(0, rows, cells.data(), error))
        return std::nullopt;
    const auto idOf = [&](std::int64_t n, int axis) {
        const auto [row, column] = rotation.patchAt(n);
        return double((axis == Rope2dRotation::kRow ? row : column) + rotation.originOf(axis));
    };
    // Whether pair j's columns hold its declared frequency's angle at the axis's ids in every row,
    // within float32 angles and the value's rounding.
    const auto turnsWith = [&](std::int64_t j, int axis) {
        const double inv = rotation.inverseFrequencies()[std::size_t(j)];
        for (std::int64_t n = 0; n < rows; ++n) {
            const double a = idOf(n, axis) * inv;
            const double want = cosine ? std::cos(a) : std::sin(a);
            const double limit = 0x1p-22 + 4.0 * 0x1p-24 * std::fabs(a);
            for (const std::int64_t c : half ? std::vector {j, j + pairs} : std::vector {2 * j, 2 * j + 1}) {
                if (std::fabs(double(cells[std::size_t(n * cols + c)]) - want) > limit)
                    return false;
            }
        }
        return true;
    };
    std::vector<int> found, meant;
    std::int64_t moved = 0, withOther = 0;
    for (std::int64_t j = 0; j < pairs; ++j) {
        const int axis = rotation.axes()[std::size_t(j)];
        if (axis != Rope2dRotation::kRow && axis != Rope2dRotation::kColumn)
            return std::nullopt;
        const int other = axis == Rope2dRotation::kRow ? Rope2dRotation::kColumn : Rope2dRotation::kRow;
        meant.push_back(axis);
        const bool own = turnsWith(j, axis), others = turnsWith(j, other);
        withOther += others ? 1 : 0;
        if (own) {
            found.push_back(axis);
        } else if (others) {
            found.push_back(other);
            ++moved;
        } else {
            return std::nullopt;
        }
    }
    if (moved == 0)
        return std::nullopt;
    TableMatch m = declared;
    if (withOther == pairs) {
        // Every pair with the other axis (a slow pair that cannot tell the two apart too): each
        // patch's row id on the column's pairs and its column id on the row's, the grid's axes
        // exchanged (as M-RoPE's mrope-axes-swapped, h and w exchanged).
        m.mistakes = {CheckMistakes::kGridAxesSwapped};
        m.notes.prepend(m.diagnosis);
        m.diagnosis = u"every pair turns at %1 frequency, but with the other axis of the grid: each patch's row id "
                      "turns the pairs of its column and its column id those of its row, h and w exchanged (patch "
                      "(h, w) holds the rotation %2 gives (w, h))"_s.arg(DeclaredWords::referenceOf(),
                                                                         DeclaredWords::reference());
        return m;
    }
    m.mistakes = {kPairAxes};
    m.notes.prepend(m.diagnosis);
    const QString style = Rope2dParamRows::styleWords().value(int(p.rope2d.style));
    m.diagnosis = u"every pair turns at %1 frequency, but %2 of the %3 pairs with the other axis of the grid: the "
                  "table turns %4, where %5 %6 style turns %7%8"_s.arg(DeclaredWords::referenceOf())
                      .arg(moved)
                      .arg(pairs)
                      .arg(splitWords(found), DeclaredWords::the(), style, splitWords(meant),
                           runsOf(found) == 2 && p.rope2d.style == Rope2dStyle::Hunyuan
                               ? u" (two contiguous sections, as M-RoPE's mrope_section splits the pairs: "
                                 "vllm-project/vllm-omni#1784's HunyuanImage 3.0)"_s
                               : runsOf(found) == 2 ? u" (two contiguous sections)"_s
                                                    : QString());
    return m;
}

} // namespace posenc::Rope2dPairAxes
