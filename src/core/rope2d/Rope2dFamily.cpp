// 2-D RoPE (docs/ARCHITECTURE.md, Encoding families): no term added to X; a vision model's patch
// is rotated by its row and column, its pairs split between the axes in one of four styles.
#include "core/FamilySpec.h"

#include "core/ParamText.h"
#include "core/rope2d/Rope2dParamRows.h"
#include "core/rope2d/Rope2dRotation.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Where the style's model puts its text tokens: FLUX.1 at (0, 0, 0), the rotation of patch (0, 0)
// (sampling.prepare's txt_ids); FLUX.2 at (0, 0, 0, l) (prc_txt); the vision encoders have none.
QString textIds(const Params &params)
{
    if (params.rope2d.style != Rope2dStyle::Flux)
        return u"none: the encoder sees patches alone"_s;
    if (params.rope2d.axesDim.size() >= 4)
        return u"(0, 0, 0, l): a 1-D rotation on axis 3"_s;
    return u"(0, 0, 0): unrotated, as patch (0, 0)"_s;
}

Description::Entries rope2dEntries(const Params &params)
{
    const Rope2dRotation rotation(params);
    std::vector<std::int64_t> perAxis(4, 0);
    for (const int axis : rotation.axes())
        ++perAxis[std::size_t(std::min(axis, 3))];
    const std::vector<double> &inv = rotation.inverseFrequencies();
    // The slowest pair of each grid axis: how far apart two patches must be on it to turn it once.
    double slowestRow = 0.0, slowestColumn = 0.0;
    for (std::size_t j = 0; j < inv.size(); ++j) {
        double &slowest = rotation.axes()[j] == Rope2dRotation::kRow ? slowestRow : slowestColumn;
        if (rotation.axes()[j] == Rope2dRotation::kRow || rotation.axes()[j] == Rope2dRotation::kColumn)
            slowest = slowest == 0.0 ? inv[j] : std::min(slowest, inv[j]);
    }
    return {
        {u"rope_2d_style"_s, ParamText::get(params, u"rope-2d-style"_s)},
        {u"patches"_s, rotation.patches()},
        {u"head_dim"_s, rotation.headDim()},
        {u"pairs_row"_s, perAxis[1]},
        {u"pairs_column"_s, perAxis[2]},
        {u"pairs_constant"_s, perAxis[0] + perAxis[3]},
        {u"slowest_row_inv_freq"_s, slowestRow},
        {u"slowest_column_inv_freq"_s, slowestColumn},
        {u"text_ids"_s, textIds(params)},
    };
}

} // namespace

FamilySpec makeRope2dFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"Rope2d"_s), FamilyKind::Rotation);
    family.rows = Rope2dParamRows::rows;
    // The families it is built on, named: the rows of theirs it reads as they are.
    family.borrows = {{Encoding::Rope, {u"head-dim"_s, u"rope-theta"_s}, true},
                      {Encoding::Mrope, {u"spatial-merge-size"_s}, false},
                      {Encoding::Sincos2d, {u"grid"_s}, false}};
    family.describe = rope2dEntries;
    family.defaultFigures = {{u"rope-2d-similarity"_s, {}},
                             {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}},
                             {u"dropout"_s, {}}};
    return family;
}

} // namespace posenc
