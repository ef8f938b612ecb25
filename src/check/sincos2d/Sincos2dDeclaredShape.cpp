#include "Sincos2dDeclaredShape.h"

#include "check/DeclaredShape.h"
#include "check/DeclaredWords.h"
#include "core/sincos2d/Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dDeclaredShape {

namespace {

QString gridText(const Params &p)
{
    return u"%1 x %2"_s.arg(p.sincos2d.grid[0]).arg(p.sincos2d.grid[1]);
}

} // namespace

std::vector<Params> candidates(const Params &declared, std::int64_t rows, std::int64_t cols)
{
    std::vector<Params> found;
    const std::int64_t patches = rows - (declared.sincos2d.clsToken ? 1 : 0);
    if (patches < 1 || cols < 4)
        return found;
    const std::vector<std::int64_t> &mine = declared.sincos2d.grid;
    std::vector<std::pair<std::int64_t, std::int64_t>> grids = DeclaredShape::otherGrids(patches, mine[0], mine[1]);
    // At another embed_dim, the declared grid too.
    if (cols != declared.dModel)
        grids.insert(grids.begin(), {mine[0], mine[1]});
    for (const auto &[h, w] : grids) {
        Params p = declared;
        p.dModel = cols;
        p.sincos2d.grid = {h, w};
        p.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
        if (p.isValid() && Sincos2dTable(p, p.dModel).rows() == rows)
            found.push_back(p);
    }
    return found;
}

TableMatch named(TableMatch m, const Params &declared, const Params &read)
{
    QStringList ids, said, values;
    if (read.sincos2d.grid != declared.sincos2d.grid) {
        ids.append(DeclaredShape::kGrid);
        said.append(u"grid: the table is the 2-D sin-cos table of a %1 grid (%2 patches), %3 is %4 (%5 patches)"_s
                        .arg(gridText(read))
                        .arg(read.sincos2d.grid[0] * read.sincos2d.grid[1])
                        .arg(DeclaredWords::referenceOf(), gridText(declared))
                        .arg(declared.sincos2d.grid[0] * declared.sincos2d.grid[1]));
        values.append(u"grid %1"_s.arg(gridText(read)));
    }
    if (read.dModel != declared.dModel) {
        ids.append(DeclaredShape::kDModel);
        said.append(u"d-model: the table's embed_dim is %1 (%1 columns), %2 is %3"_s.arg(read.dModel)
                        .arg(DeclaredWords::referenceOf())
                        .arg(declared.dModel));
        values.append(u"embed_dim %1"_s.arg(read.dModel));
    }
    return DeclaredShape::named(std::move(m), ids, said.join(u"; "_s), values.join(u", "_s));
}

} // namespace posenc::Sincos2dDeclaredShape
