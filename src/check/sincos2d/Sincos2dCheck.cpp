// The 2-D sin-cos table's facet of posenc check (FamilyCheck.h): its table of a patch grid, and MAE's
// config.
#include "check/FamilyCheck.h"

#include "check/sincos2d/Sincos2dChannelsFirst.h"
#include "check/sincos2d/Sincos2dConfig.h"
#include "check/sincos2d/Sincos2dTableCheck.h"

#include "check/sincos2d/Sincos2dDetrMap.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A map declared LoFTR's (--map-form loftr) that its reading does not hold: a mistake, what it
// reads as otherwise said.
std::optional<TableMatch> notLoftr(const std::vector<std::int64_t> &shape, const TableRows &rows)
{
    TableMatch m;
    m.verdict = CheckVerdict::Mistake;
    m.family = Encoding::Sincos2d;
    m.unreferenced = u"no form of LoFTR's PositionEncodingSine holds the map's cells"_s;
    m.diagnosis = u"the map is not LoFTR's PositionEncodingSine (zju3dv/LoFTR position_encoding.py, either "
                  "temp_bug_fix), which --map-form loftr declares"_s;
    if (const auto other = Sincos2dDetrMap::read(shape, rows, nullptr))
        m.diagnosis += u"; read undeclared: %1"_s.arg(other->diagnosis);
    return m;
}

// A batch of flattened maps [B, H·W, C] over the declared grid (DETR's pos.flatten(2).permute(0, 2,
// 1)), read whole so that each image's valid region is said: a published form, or the form's
// parameters or the padding named; else, or with no --map-form held, nothing (each slice is then
// checked as a table).
std::optional<TableMatch> flattenedBatch(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                         const Params &declared, const QString &form)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1 || !dims.empty())
            dims.push_back(d);
    }
    const auto &grid = declared.sincos2d.grid;
    if (dims.size() != 3 || dims[0] < 2 || dims[1] != grid[0] * grid[1] || declared.sincos2d.clsToken)
        return std::nullopt;
    auto map = Sincos2dDetrMap::readFlattened(rows, grid[0], grid[1], &declared, form, dims[0]);
    const bool formDeclared = !form.isEmpty() && form != Sincos2dDetrMap::kLoftrWord;
    if (!map || !(map->verdict == CheckVerdict::Correct || !map->mistakes.isEmpty() || formDeclared))
        return std::nullopt;
    return map;
}

} // namespace

FamilyCheck makeSincos2dCheck()
{
    FamilyCheck check;
    check.table = Sincos2dTableCheck::hypothesis();
    check.readConfig = Sincos2dConfig::layers;
    // Its cells hold a grid's coordinates, not positions of a sequence.
    check.rowsAtPositions = false;
    // `--expect sincos-2d` with no flag of the width: d_model the table's.
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        params.dModel = std::clamp<std::int64_t>(cols, 1, Params::kMaxDModel);
    };
    // LoFTR's [C, H, W] sine map (PositionEncodingSine) of either form, read undeclared; declared
    // (`--expect sincos-2d`, base 10000), against its fixed division, the map's own d_model and grid.
    // DETR's [B, C, H, W] map (PositionEmbeddingSine) of its published forms, or the one --map-form
    // declares (Sincos2dDetrMap).
    check.readStack = [](const std::vector<std::int64_t> &shape, const TableRows &rows,
                         const Params *declared, const QString &form) -> std::optional<TableMatch> {
        const bool loftr = form == Sincos2dDetrMap::kLoftrWord;
        if (auto batch = declared ? flattenedBatch(shape, rows, *declared, form) : std::nullopt)
            return batch;
        if (form.isEmpty() || loftr) {
            if (auto read = Sincos2dChannelsFirst::read(shape, rows, declared != nullptr); read || !loftr)
                return read ? read : Sincos2dDetrMap::read(shape, rows, declared, form);
            return notLoftr(shape, rows);
        }
        return Sincos2dDetrMap::read(shape, rows, declared, form);
    };
    check.tensors.mistakes = QStringList {Sincos2dChannelsFirst::kDivTermFloored} + Sincos2dDetrMap::kMistakes;
    for (const Sincos2dDetrMap::Published &p : Sincos2dDetrMap::published())
        check.stackForms.append({p.name, p.source, u"sincos-2d"_s, Params()});
    check.stackForms.append({u"LoFTR's PositionEncodingSine, temp_bug_fix=True"_s,
                             u"zju3dv/LoFTR src/loftr/utils/position_encoding.py, PositionEncodingSine"_s,
                             u"sincos-2d"_s, Params()});
    return check;
}

} // namespace posenc
