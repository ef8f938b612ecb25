// The sinusoid's facet of posenc check (FamilyCheck.h): its table, its config readers (Whisper's,
// and diffusers' configs of a timestep embedding).
#include "check/FamilyCheck.h"

#include "check/sinusoidal/DiffusersConfig.h"
#include "check/sinusoidal/SinusoidalConfig.h"
#include "check/sinusoidal/SinusoidalTableCheck.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeSinusoidalCheck()
{
    FamilyCheck check = FamilyCheck::withConfig(SinusoidalTableCheck::hypothesis(), SinusoidalConfig::layers,
                                                SinusoidalConfig::findings(),
                                                [](const Params &) { return u"sinusoids added to the input"_s; });
    check.readOtherConfig = DiffusersConfig::check;
    // The declared reference starts at the ids' first (SinusoidalFit reads row 0 there).
    check.tensors.readsLaterPositions = true;
    check.table->exactAngles = [](Params &params) { params.sinusoidal.angles = Angles::Exact; };
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        params.dModel = std::clamp<std::int64_t>(cols, 1, Params::kMaxDModel);
    };
    return check;
}

} // namespace posenc
