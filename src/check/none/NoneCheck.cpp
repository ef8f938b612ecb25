// NoPE's facet of posenc check (FamilyCheck.h): the layers of a config that place no position.
#include "check/FamilyCheck.h"

#include "check/none/NoneConfig.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeNoneCheck()
{
    FamilyCheck check;
    check.readConfig = NoneConfig::layers;
    check.layerWords = [](const Params &) { return u"NoPE: no position"_s; };
    check.layerTerse = u"NoPE"_s;
    return check;
}

} // namespace posenc
