// DeBERTa's facet of posenc check (FamilyCheck.h): its bucket table, its config reader.
#include "check/FamilyCheck.h"

#include "check/deberta/DebertaConfig.h"
#include "check/deberta/DebertaTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeDebertaCheck()
{
    const auto words = [](const Params &p) { return u"DeBERTa buckets %1"_s.arg(p.deberta.buckets); };
    return FamilyCheck::withConfig(DebertaTableCheck::hypothesis(), DebertaConfig::layers, DebertaConfig::findings(),
                                   words);
}

} // namespace posenc
