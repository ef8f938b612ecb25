// The sinusoid's panel of the families figure (FamilyPanel.h): PE[q]·PE[q + k] against the offset.
#include "render/data/FamilyPanel.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The families figure's panel: PE[q] · PE[q + k] = the sum over whole pairs of cos(k w_i), and for
// an odd number of columns the lone sine's sin(q w) sin((q + k) w).
std::optional<FamilyPanelData> sinusoidPanelData(const Params &params, std::int64_t query, const OffsetPixels &offsets,
                                                 std::int64_t budget, const std::atomic<bool> *cancel)
{
    FamilyPanelData data;
    const std::int64_t columns = familyUnder(params, Encoding::Sinusoidal).peColumns();
    const double base = params.sinusoidal.base;
    std::vector<double> whole = Frequencies::schedule(columns, params.sinusoidal).w;
    std::function<double(std::int64_t)> lone;
    if (columns % 2 == 1) {
        const double w = whole.back();
        whole.pop_back();
        lone = [w, query](std::int64_t k) {
            return std::sin(static_cast<double>(query) * w) * std::sin(static_cast<double>(query + k) * w);
        };
    }
    auto curve = FamilyCurves::cosineSum(offsets, whole, 1.0, 0.0, lone, budget, &data.sampled, cancel);
    if (!curve)
        return std::nullopt;
    data.curve = std::move(*curve);
    data.note
        = u"sinusoid: PE[q]·PE[q+k] = Σᵢ cos(k·wᵢ), d = %1, b = %2"_s.arg(columns).arg(NumberText::compact(base, 6));
    return data;
}

// PE[q] · PE[j] over the table's columns, in double.
std::optional<FamilyPanelPoint> sinusoidPanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    const std::int64_t columns = familyUnder(params, Encoding::Sinusoidal).peColumns();
    double sum = 0.0;
    const auto w = Frequencies::schedule(columns, params.sinusoidal).w;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const double a = static_cast<double>(query) * w[i], b = static_cast<double>(key) * w[i];
        sum += std::sin(a) * std::sin(b);
        if (static_cast<std::int64_t>(2 * i + 1) < columns)
            sum += std::cos(a) * std::cos(b);
    }
    return FamilyPanelPoint {sum, u"k = %1: PE[q]·PE[j]"_s.arg(key - query)};
}

} // namespace

FamilyPanel makeSinusoidalPanel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Band;
    panel.label = u"PE·PE"_s;
    panel.terseLabel = u"PE·PE"_s;
    panel.summaryOwner = u"the sinusoid's"_s;
    panel.summaryNoun = u"PE.PE"_s;
    panel.colour = 0xD55E00;
    panel.inputs = {Quantity::Pe};
    panel.evaluationsPerOffset = [](const Params &params) {
        return std::max<std::int64_t>(familyUnder(params, Encoding::Sinusoidal).peColumns() / 2, 1);
    };
    panel.compute = sinusoidPanelData;
    panel.valueAt = sinusoidPanelValue;
    return panel;
}

} // namespace posenc
