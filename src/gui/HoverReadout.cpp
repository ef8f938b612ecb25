#include "HoverReadout.h"

#include "core/Frequencies.h"

using namespace Qt::StringLiterals;

namespace posenc::HoverReadout {

std::optional<std::int64_t> peColumnOf(const Params &params, std::int64_t column, bool columnIsPe)
{
    const std::int64_t k = params.peColumns();
    const std::int64_t pe = columnIsPe || params.compose == Compose::Sum ? column : column - params.embeddingColumns();
    if (pe < 0 || pe >= k)
        return std::nullopt;
    return pe;
}

QString format(const Params &params, const HoverPoint &point)
{
    QStringList parts;
    if (point.hasPosition)
        parts << u"position %1"_s.arg(point.position);
    if (point.column) {
        parts << u"column %1"_s.arg(*point.column);
        if (const auto pe = peColumnOf(params, *point.column, point.columnIsPe)) {
            const std::int64_t k = params.peColumns();
            const ColumnRole role = Frequencies::role(*pe, k, params.layout);
            parts << u"pair %1 (%2)"_s.arg(role.pair).arg(role.isCos ? u"cos"_s : u"sin"_s);
            parts << u"ω = %1 rad/position"_s.arg(Frequencies::angular(role.pair, k, params.base), 0, 'g', 5);
            parts << u"λ = %1 positions"_s.arg(Frequencies::wavelength(role.pair, k, params.base), 0, 'g', 5);
        } else {
            parts << u"no PE in this column"_s;
        }
    }
    if (point.value)
        parts
            << u"%1 = %2"_s.arg(point.valueName.isEmpty() ? u"value"_s : point.valueName).arg(*point.value, 0, 'g', 6);
    return parts.join(u"   ·   "_s);
}

} // namespace posenc::HoverReadout
