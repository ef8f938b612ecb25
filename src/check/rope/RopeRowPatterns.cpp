// The patterns of rows' positions RopeRowPositions names (RopeRowPatterns.h).
#include "RopeRowPatterns.h"

#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc::RopeRowPositions {

// The one position every read row holds, where at least two rows are read and no row holds another
// (unread rows aside: the stream's).
std::optional<std::int64_t> onePosition(const std::vector<Region> &regions)
{
    std::optional<std::int64_t> one;
    std::int64_t read = 0;
    for (const Region &g : regions) {
        if (g.list == kUnread)
            continue;
        if (g.count != 1 || (one && *one != g.position))
            return std::nullopt;
        one = g.position;
        ++read;
    }
    return read >= 2 ? one : std::nullopt;
}

// Whether the rows are runs each from position 0, the first at its own rows: the rows of documents
// packed into one sequence, each document's positions from 0 (Megatron's get_ltor_masks_and_
// position_ids with reset_position_ids).
bool restartsAtZero(const std::vector<Region> &regions)
{
    if (regions.size() < 2 || regions.front().row != 0)
        return false;
    return std::all_of(regions.begin(), regions.end(),
                       [](const Region &r) { return r.list != kUnread && r.position == 0; });
}

QString restartWords(const std::vector<Region> &regions)
{
    QStringList starts;
    for (std::size_t k = 1; k < regions.size() && starts.size() < 8; ++k)
        starts.append(QString::number(regions[k].row));
    return u"; rows %1.. restart at position 0, as documents packed into one sequence hold them: packed "
           "documents? give --position-ids"_s.arg(starts.join(u".., "_s));
}

// The whole number s >= 2 where every row read r holds position s r (a row of both lists too), and
// some row past 0 is read; nothing else.
std::optional<std::int64_t> scaleOf(const std::vector<Region> &regions)
{
    std::optional<std::int64_t> scale;
    for (const Region &g : regions) {
        if (g.list == kUnread)
            continue;
        for (std::int64_t i = 0; i < g.count; ++i) {
            const std::int64_t row = g.row + i, position = g.position + i;
            if (row == 0 ? position != 0 : position % row != 0)
                return std::nullopt;
            if (row > 0 && !scale)
                scale = position / row;
            if (row > 0 && (*scale < 2 || position != *scale * row))
                return std::nullopt;
        }
    }
    return scale;
}

QString scaledWords(std::int64_t scale, const RopeFit::Hypothesis &correct)
{
    const RopeParams &r = correct.params.rope;
    const QString declared = r.type == RopeType::Linear
        ? u"rope_type linear with factor %1"_s.arg(r.factor.value_or(1.0))
        : u"rope_type %1"_s.arg(RopeTypes::word(r.type));
    return u"row r holds position %1 r (row 1 position %1, row 2 position %2, …): the positions were multiplied by "
           "%1 before their angles were formed, in order but scaled (mlx-lm#1545: InternLM3's default position "
           "scale of 2). The angles are rope_type linear's with a factor 1/%1 of the reference's (position / factor): "
           "the table alone cannot tell the two apart; the reference gives %3, so the rows are read as scaled "
           "positions"_s.arg(scale)
               .arg(2 * scale)
               .arg(declared);
}

} // namespace posenc::RopeRowPositions
