// The families' facets of posenc check, from their manifests (FamilyCheck.h).
#include "FamilyCheck.h"

#include "core/FamilySpec.h"

#include <vector>

namespace posenc {

FamilyCheck FamilyCheck::withConfig(TableHypothesis table, std::function<QList<ConfigLayer>(ConfigContext &)> readConfig,
                                    QList<ConfigFindings::Kind> findings,
                                    std::function<QString(const Params &)> layerWords)
{
    FamilyCheck check;
    check.table = std::move(table);
    check.readConfig = std::move(readConfig);
    check.configFindings = std::move(findings);
    check.layerWords = std::move(layerWords);
    return check;
}

namespace FamilyChecks {

const FamilyCheck &of(Encoding family)
{
    // Made on first use, in the list's order: no registration at static initialisation, which a
    // static library's link could drop. Each manifest names its family before its facet.
    static const std::vector<FamilyCheck> checks = [] {
        std::vector<FamilyCheck> list(std::size_t(Families::all().size()));
        // The list's n-th family is the enum's n-th value.
        std::size_t next = 0, current = 0;
#define POSENC_FAMILY(Name, member) current = next++;
#define POSENC_FAMILY_CHECK(Name) list[current] = make##Name##Check();
#include "core/FamilyList.h"
#undef POSENC_FAMILY_CHECK
#undef POSENC_FAMILY
        return list;
    }();
    return checks[std::size_t(family)];
}

} // namespace FamilyChecks

} // namespace posenc
