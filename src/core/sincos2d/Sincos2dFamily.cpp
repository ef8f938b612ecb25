// The 2-D sin-cos table (docs/ARCHITECTURE.md, Encoding families): MAE's, DiT's and diffusers'
// get_2d_sincos_pos_embed, added to the patch embeddings; position p is the table's row p.
#include "core/ClosedForms.h"
#include "core/FamilySpec.h"

#include "core/NumberText.h"
#include "core/sincos2d/Sincos2dParamRows.h"
#include "core/sincos2d/Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <numbers>

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

// Where column j of the table comes from: the patch's column (the first half) or its row, the sine
// or the cosine (each a quarter), of frequency k.
struct Sincos2dColumn
{
    bool ofRow = false;
    bool isCos = false;
    std::int64_t k = 0;
    double omega = 0.0; // 10000^(-k / (d/4))
};

Sincos2dColumn sincos2dColumn(const Params &params, std::int64_t column)
{
    const std::int64_t quarter = std::max<std::int64_t>(params.peColumns() / 4, 1);
    Sincos2dColumn c;
    c.ofRow = column >= 2 * quarter;
    c.isCos = column % (2 * quarter) >= quarter;
    c.k = column % quarter;
    c.omega = std::pow(10000.0, -double(c.k) / double(quarter));
    return c;
}

// The hover readout's words of a column: which coordinate it turns, with its frequency.
QString sincos2dColumnWords(const Params &params, std::int64_t column)
{
    const Sincos2dColumn c = sincos2dColumn(params, column);
    return u"%1 of the patch's %2, frequency %3: ω = %4, λ = %5"_s
        .arg(c.isCos ? u"cos"_s : u"sin"_s, c.ofRow ? u"row"_s : u"column"_s)
        .arg(c.k)
        .arg(c.omega, 0, 'g', 5)
        .arg(2.0 * std::numbers::pi / c.omega, 0, 'g', 5);
}

// And of a cell: the cls token's zero row, or the patch, its coordinate and the angle.
QStringList sincos2dCellWords(const Params &params, std::int64_t position, std::int64_t column, float value)
{
    const Sincos2dParams &s = params.sincos2d;
    const std::int64_t cls = s.clsToken ? 1 : 0;
    const QString pe = NumberText::compact(value, 6);
    if (position < cls)
        return {u"the cls token's row: PE = %1"_s.arg(pe)};
    const std::int64_t patch = position - cls;
    const std::int64_t row = patch / s.grid[1], col = patch % s.grid[1];
    const Sincos2dColumn c = sincos2dColumn(params, column);
    const double x
        = c.ofRow ? Sincos2dTable::coordinate(row, s.grid[0], s) : Sincos2dTable::coordinate(col, s.grid[1], s);
    return {u"patch %1 (row %2, column %3): "_s.arg(patch).arg(row).arg(col) + sincos2dColumnWords(params, column),
            u"PE = %1 = %2(%3·ω = %4 rad)"_s.arg(pe, c.isCos ? u"cos"_s : u"sin"_s, NumberText::compact(x, 6),
                                                 NumberText::compact(x * c.omega, 6))};
}

} // namespace

FamilySpec makeSincos2dFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"Sincos2d"_s), FamilyKind::Term);
    family.rows = Sincos2dParamRows::rows;
    FamilyTerm term;
    term.parts = [](const Params &params, std::int64_t columns) {
        auto table = std::make_shared<const Sincos2dTable>(params, columns);
        PositionTermParts parts;
        parts.fill = [table](const Block &block, BlockRef out) { table->fill(block, out); };
        parts.owner = table;
        return parts;
    };
    // Each patch row is a sinusoid of d/2 columns along x beside one along y, d/4 sin/cos pairs each,
    // every pair sin² + cos² = 1: ||PE_p||² = d/2 (MAE's get_2d_sincos_pos_embed asserts d % 2 = 0 of the whole and of
    // each half: d % 4 = 0). MAE's [CLS] row is 0, so with it no one norm holds for every row.
    term.normSquared = [](const Params &params) -> std::optional<double> {
        const std::int64_t d = params.peColumns();
        if (params.sincos2d.clsToken || d % 4 != 0)
            return std::nullopt;
        return ClosedForms::peNormSquared(d);
    };
    term.noOneNorm = [](const Params &params) -> std::optional<QString> {
        if (!params.sincos2d.clsToken)
            return std::nullopt;
        return u"its [CLS] row of the position term is 0 and every patch row's ||PE|| is sqrt(d/2): no one norm "
               "holds for every row"_s;
    };
    term.cellWords = sincos2dCellWords;
    term.columnWords = sincos2dColumnWords;
    family.term = term;
    family.describe = sincos2dEntries;
    family.defaultFigures = {{u"heatmap"_s, {{u"quantity"_s, u"pe"_s}}},
                             {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}},
                             {u"dropout"_s, {}}};
    return family;
}

} // namespace posenc
