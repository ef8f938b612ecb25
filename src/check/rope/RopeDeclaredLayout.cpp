#include "RopeDeclaredLayout.h"

#include "check/rope/RopePublishedForms.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeDeclaredLayout {

namespace {

// Whether `p` turns at a de-interleaving form's frequencies and attention factor.
bool deinterleavingForm(const Params &p)
{
    const RopeFrequencies::Table mine = RopeFrequencies::table(p);
    const auto forms = RopePublishedForms::forms();
    return std::any_of(forms.begin(), forms.end(), [&](const RopeFit::Published &form) {
        if (!form.deinterleaved)
            return false;
        const RopeFrequencies::Table theirs = RopeFrequencies::table(form.params);
        if (theirs.inv.size() != mine.inv.size()
            || std::fabs(theirs.attentionFactor - mine.attentionFactor) > 1e-9 * theirs.attentionFactor)
            return false;
        for (std::size_t k = 0; k < mine.inv.size(); ++k) {
            if (std::fabs(theirs.inv[k] - mine.inv[k]) > 1e-12 * theirs.inv[k])
                return false;
        }
        return true;
    });
}

bool repeats(const TableSample &s, RopeLayout layout)
{
    const std::int64_t cols = s.cols(), half = cols / 2;
    for (std::int64_t i = 0; i < s.size(); ++i) {
        for (std::int64_t k = 0; k < half; ++k) {
            const std::int64_t a = layout == RopeLayout::Half ? k : 2 * k;
            const std::int64_t b = layout == RopeLayout::Half ? k + half : 2 * k + 1;
            if (s.values(i, a) != s.values(i, b))
                return false;
        }
    }
    return true;
}

} // namespace

bool eitherLayout(const Params &p)
{
    return p.rope.layout == RopeLayout::Interleaved && deinterleavingForm(p);
}

std::optional<RopeLayout> of(const TableEvidence &e)
{
    if (!e.declared.declares(u"rope-layout"_s) || eitherLayout(e.declared.params))
        return std::nullopt;
    return e.declared.params.rope.layout;
}

std::optional<RopeLayout> read(const TableSample &sample)
{
    if (sample.cols() < 4 || sample.cols() % 2 != 0 || sample.size() == 0)
        return std::nullopt;
    const bool half = repeats(sample, RopeLayout::Half), interleaved = repeats(sample, RopeLayout::Interleaved);
    if (half == interleaved)
        return std::nullopt;
    return half ? RopeLayout::Half : RopeLayout::Interleaved;
}

} // namespace posenc::RopeDeclaredLayout
