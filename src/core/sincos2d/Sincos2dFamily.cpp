// The 2-D sin-cos table (docs/ARCHITECTURE.md, Encoding families): MAE's, DiT's and diffusers'
// get_2d_sincos_pos_embed, added to the patch embeddings; position p is the table's row p.
#include "core/FamilySpec.h"

#include "check/sincos2d/Sincos2dTableCheck.h"
#include "core/sincos2d/Sincos2dParamRows.h"
#include "core/sincos2d/Sincos2dTable.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries sincos2dEntries(const Params &params)
{
    const Sincos2dParams &s = params.sincos2d;
    const std::int64_t quarter = params.peColumns() / 4;
    return {
        {u"tokens"_s, s.grid[0] * s.grid[1] + (s.clsToken ? 1 : 0)},
        {u"grid_h"_s, s.grid[0]},
        {u"grid_w"_s, s.grid[1]},
        {u"cls_token"_s, s.clsToken},
        {u"frequencies"_s, quarter},
        {u"last_row_coordinate"_s, Sincos2dTable::coordinate(s.grid[0] - 1, s.grid[0], s)},
        {u"last_column_coordinate"_s, Sincos2dTable::coordinate(s.grid[1] - 1, s.grid[1], s)},
        {u"slowest_frequency"_s, quarter > 0 ? std::pow(10000.0, -double(quarter - 1) / double(quarter)) : 0.0},
    };
}

} // namespace

FamilySpec makeSincos2dFamily()
{
    FamilySpec family;
    family.word = u"sincos-2d"_s;
    family.kind = FamilyKind::Term;
    family.help = u"sincos-2d (a patch grid's, MAE and DiT)"_s;
    family.formula = u"PE[row·W + column] = [sin(column·ω<sub>k</sub>) | cos(column·ω<sub>k</sub>) | sin(row·ω"
                     "<sub>k</sub>) | cos(row·ω<sub>k</sub>)], ω<sub>k</sub> = 10000<sup>−4k/d</sup> "
                     "(get_2d_sincos_pos_embed: MAE, DiT, SD3)"_s;
    family.heading = u"2-D sin-cos"_s;
    family.rows = Sincos2dParamRows::rows;
    family.positionTerm = [](const Params &params, std::int64_t columns) {
        auto table = std::make_shared<const Sincos2dTable>(params, columns);
        PositionTermParts parts;
        parts.fill = [table](const Block &block, BlockRef out) { table->fill(block, out); };
        parts.owner = table;
        return parts;
    };
    family.describe = sincos2dEntries;
    family.describeSource = u"get_2d_sincos_pos_embed of MAE, DiT and diffusers"_s;
    family.describeKeys = {
        {u"tokens"_s, u"H·W, + 1 with the cls token"_s},
        {u"grid_h, grid_w, cls_token"_s, u"the grid and the cls row"_s},
        {u"frequencies"_s, u"d/4: the frequencies of each axis"_s},
        {u"last_row_coordinate, last_column_coordinate"_s, u"the coordinates of the last patch"_s},
        {u"slowest_frequency"_s, u"10000^(-(d/4 - 1)/(d/4))"_s},
    };
    family.defaultFigures = {{u"heatmap"_s, {{u"quantity"_s, u"pe"_s}}},
                             {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}},
                             {u"dropout"_s, {}}};
    family.tableHypothesis = Sincos2dTableCheck::hypothesis();
    return family;
}

} // namespace posenc
