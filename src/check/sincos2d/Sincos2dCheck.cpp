// The 2-D sin-cos table's facet of posenc check (FamilyCheck.h): its table of a patch grid, and MAE's
// config.
#include "check/FamilyCheck.h"

#include "check/sincos2d/Sincos2dChannelsFirst.h"
#include "check/sincos2d/Sincos2dConfig.h"
#include "check/sincos2d/Sincos2dTableCheck.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeSincos2dCheck()
{
    FamilyCheck check;
    check.table = Sincos2dTableCheck::hypothesis();
    check.readConfig = Sincos2dConfig::layers;
    // `--expect sincos-2d` with no flag of the width: d_model the table's.
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        params.dModel = std::clamp<std::int64_t>(cols, 1, Params::kMaxDModel);
    };
    // LoFTR's [C, H, W] sine map (PositionEncodingSine) of either form, read undeclared; declared
    // (`--expect sincos-2d`, base 10000), against its fixed division, the map's own d_model and grid.
    check.readStack = [](const std::vector<std::int64_t> &shape, const TableRows &rows,
                         const Params *declared) -> std::optional<TableMatch> {
        return Sincos2dChannelsFirst::read(shape, rows, declared != nullptr);
    };
    check.tensors.mistakes = {Sincos2dChannelsFirst::kDivTermFloored};
    return check;
}

} // namespace posenc
