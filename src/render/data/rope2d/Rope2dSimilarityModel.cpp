#include "Rope2dSimilarityModel.h"

#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope2d/Rope2dRotation.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A split of the pairs: each pair's axis (1 the row, 2 the column, else constant) and frequency.
struct Split
{
    QString title;
    bool chosen = false;
    std::vector<int> axes;
    std::vector<double> inv;
};

Split styleSplit(const Params &params, Rope2dStyle style)
{
    Params p = params;
    p.rope2d.style = style;
    QString what = u"head %1, θ %2"_s;
    const bool chosen = style == params.rope2d.style;
    if (!chosen) {
        // Each model's own head and theta: Qwen2-VL's ViT 1280/16, Pixtral-12B's 1024/16, FLUX.1's
        // EmbedND, RoPE-ViT's rope_axial at theta 100.
        const std::int64_t heads[] = {80, 64, 128, 64};
        const double thetas[] = {1e4, 1e4, 1e4, 100.0};
        p.rope.headDim = heads[int(style)];
        p.rope.theta = thetas[int(style)];
        p.rope2d.axesDim = {16, 56, 56};
    }
    const QString words[] = {u"Qwen-VL ViT"_s, u"Pixtral"_s, u"FLUX EmbedND"_s, u"RoPE-ViT axial"_s};
    const Rope2dRotation rotation(p);
    Split split {
        u"%1  ·  %2"_s.arg(words[int(style)], what.arg(p.rope.headDim).arg(NumberText::compact(p.rope.theta, 3))),
        chosen, rotation.axes(), rotation.inverseFrequencies()};
    if (style == Rope2dStyle::Flux)
        split.title = u"%1  ·  axes %2, θ %3"_s.arg(words[2], ParamText::get(p, u"axes-dim"_s),
                                                    NumberText::compact(p.rope.theta, 3));
    return split;
}

// M-RoPE on an image: its patches at (t, h, w) = (s, s + row, s + column), Qwen2.5-VL's chunked
// [16, 24, 24] and Qwen3-VL's interleaved [24, 20, 20] at one theta (1e6) and head 128.
Split mropeSplit(bool interleaved)
{
    MropeParams mrope;
    mrope.interleaved = interleaved;
    mrope.section = interleaved ? std::vector<std::int64_t> {24, 20, 20} : std::vector<std::int64_t> {16, 24, 24};
    Split split;
    split.title = interleaved ? u"M-RoPE interleaved 24,20,20  ·  θ 1e6"_s : u"M-RoPE chunked 16,24,24  ·  θ 1e6"_s;
    split.axes = MropeAxes::axes(mrope, 64);
    for (int j = 0; j < 64; ++j)
        split.inv.push_back(1.0 / std::pow(1e6, double(2 * j) / 128.0));
    // The axis numbers of rope-2d: 1 the row (h), 2 the column (w), 0 constant (t).
    return split;
}

// The sampled grid lines: every one, or kMaxSide evenly with the patch's own among them.
QList<std::int64_t> sample(std::int64_t size, std::int64_t patch)
{
    QList<std::int64_t> out;
    const std::int64_t n = std::min(size, Rope2dSimilarityData::kMaxSide);
    for (std::int64_t i = 0; i < n; ++i)
        out.append(n > 1 ? i * (size - 1) / (n - 1) : 0);
    if (!out.contains(patch)) {
        out.append(patch);
        std::sort(out.begin(), out.end());
    }
    return out;
}

double partial(const Split &split, int axis, std::int64_t offset)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < split.axes.size(); ++j) {
        if (split.axes[j] == axis)
            sum += std::cos(double(offset) * split.inv[j]);
    }
    return sum;
}

} // namespace

Rope2dSimilarityData Rope2dSimilarityModel::compute(const Params &params)
{
    Rope2dSimilarityData data;
    data.height = params.sincos2d.grid[0];
    data.width = params.sincos2d.grid[1];
    const auto [row, column] = params.rope2d.patchIn(params.sincos2d.grid);
    data.patchRow = row;
    data.patchColumn = column;
    QList<Split> splits;
    for (const Rope2dStyle style : {Rope2dStyle::QwenVit, Rope2dStyle::Pixtral, Rope2dStyle::Flux, Rope2dStyle::Axial})
        splits.append(styleSplit(params, style));
    splits.append(mropeSplit(false));
    splits.append(mropeSplit(true));
    data.quarter = std::max<std::int64_t>(1, std::max(data.height, data.width) / 4);
    const std::int64_t quarter = data.quarter;
    const QList<std::int64_t> rows = sample(data.height, data.patchRow);
    const QList<std::int64_t> columns = sample(data.width, data.patchColumn);
    for (const Split &split : splits) {
        Rope2dSimilarityData::Panel panel;
        panel.title = split.title;
        panel.chosen = split.chosen;
        panel.rows = rows;
        panel.columns = columns;
        const double n = double(split.axes.size());
        double constant = 0.0;
        for (const int axis : split.axes)
            constant += axis == Rope2dRotation::kRow || axis == Rope2dRotation::kColumn ? 0.0 : 1.0;
        QList<double> rowPart, columnPart;
        for (const std::int64_t r : rows)
            rowPart.append(partial(split, Rope2dRotation::kRow, r - data.patchRow));
        for (const std::int64_t c : columns)
            columnPart.append(partial(split, Rope2dRotation::kColumn, c - data.patchColumn));
        for (qsizetype i = 0; i < rows.size(); ++i) {
            for (qsizetype j = 0; j < columns.size(); ++j) {
                const double s = (rowPart[i] + columnPart[j] + constant) / n;
                panel.score.append(s);
                data.least = std::min(data.least, s);
            }
        }
        panel.along
            = (partial(split, Rope2dRotation::kRow, 0) + partial(split, Rope2dRotation::kColumn, quarter) + constant)
            / n;
        panel.across
            = (partial(split, Rope2dRotation::kRow, quarter) + partial(split, Rope2dRotation::kColumn, 0) + constant)
            / n;
        data.panels.append(panel);
    }
    return data;
}

QString Rope2dSimilarityModel::name() const
{
    return u"rope-2d-similarity"_s;
}

QString Rope2dSimilarityModel::title() const
{
    return u"2-D RoPE similarity"_s;
}

QString Rope2dSimilarityModel::summary() const
{
    return u"the score of one patch against the whole grid for each split of the pairs: Qwen ViT, Pixtral, FLUX, "
           "axial, M-RoPE chunked and interleaved"_s;
}

QList<Quantity> Rope2dSimilarityModel::inputs(const FigureState &) const
{
    return {Quantity::Rope2dScore};
}

std::optional<TableRequest> Rope2dSimilarityModel::table(const Params &params, const FigureState &) const
{
    return TableRequest {
        TableRequest::Cells, Quantity::Rope2dScore, {0, params.sincos2d.grid[0], 0, params.sincos2d.grid[1]}, {}};
}

FigureResult Rope2dSimilarityModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const Rope2dSimilarityData>(compute(request.engine->params())), std::nullopt};
}

} // namespace posenc
