#include "BucketPanel.h"

using namespace Qt::StringLiterals;

namespace posenc::BucketPanel {

FamilyPanel panel(const Family &family)
{
    const QString &name = family.buckets.name;
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Steps;
    panel.label = name + u" bucket"_s;
    panel.terseLabel = name;
    panel.summaryOwner = name + u"'s"_s;
    panel.summaryNoun = u"bucket"_s;
    panel.colour = family.colour;
    panel.bucketStandsIn = true;
    panel.name = name;
    panel.bucketTerm = family.bucketTerm;
    panel.inputs = {family.quantity};
    panel.compute = [family](const Params &params, std::int64_t, const OffsetPixels &offsets, std::int64_t,
                             const std::atomic<bool> *) -> std::optional<FamilyPanelData> {
        FamilyPanelData data;
        std::tie(data.least, data.most) = family.range(params);
        data.problem = family.buckets.problem(params);
        if (data.problem) {
            data.note = u"%1: %2"_s.arg(family.buckets.name, *data.problem);
            return data;
        }
        data.curve = FamilyCurves::steps(
            offsets, [&](std::int64_t k) { return static_cast<double>(family.buckets.ofOffset(params, k)); });
        data.note = u"%1: %2"_s.arg(family.buckets.name, family.note(params));
        return data;
    };
    panel.valueAt = [family](const Params &params, std::int64_t query,
                             std::int64_t key) -> std::optional<FamilyPanelPoint> {
        if (family.buckets.problem(params))
            return std::nullopt;
        return FamilyPanelPoint {static_cast<double>(family.buckets.ofOffset(params, key - query)),
                                 u"k = %1: %2 bucket"_s.arg(key - query).arg(family.buckets.name)};
    };
    return panel;
}

} // namespace posenc::BucketPanel
