#include "HeadBiasPanel.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::HeadBiasPanel {

FamilyPanel named(const QString &name, const QString &noun, FamilyPanelStyle style)
{
    FamilyPanel panel;
    panel.style = style;
    panel.label = name + u" bias"_s;
    panel.terseLabel = name;
    panel.summaryOwner = name + u"'s"_s;
    panel.summaryNoun = noun;
    return panel;
}

std::optional<QString> headsProblem(std::int64_t heads, std::int64_t maxHeads, std::int64_t head)
{
    if (heads < 1 || heads > maxHeads)
        return u"heads out of range"_s;
    if (head < 1 || head > heads)
        return u"head K not within 1..H"_s;
    return std::nullopt;
}

FamilyPanelPoint point(double bias, std::int64_t offset, std::int64_t head, std::optional<std::int64_t> distance)
{
    FamilyPanelPoint point;
    point.name = u"k = %1: head %2's bias"_s.arg(offset).arg(head);
    if (distance)
        point.name += u", distance %1"_s.arg(*distance);
    if (std::isfinite(bias))
        point.value = bias;
    else
        point.name += u" −inf (masked)"_s;
    return point;
}

} // namespace posenc::HeadBiasPanel
