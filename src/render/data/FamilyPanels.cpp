// The families' panels of the families figure, from their manifests (FamilyPanel.h).
#include "FamilyPanel.h"

#include "core/FamilySpec.h"

#include <vector>

namespace posenc::FamilyPanels {

const FamilyPanel *of(Encoding family)
{
    // Made on first use, in the list's order: no registration at static initialisation, which a
    // static library's link could drop. Each manifest names its family before its panel.
    static const std::vector<std::optional<FamilyPanel>> panels = [] {
        std::vector<std::optional<FamilyPanel>> list(std::size_t(Families::all().size()));
        // The list's n-th family is the enum's n-th value.
        std::size_t next = 0, current = 0;
#define POSENC_FAMILY(Name, member) current = next++;
#define POSENC_FAMILY_PANEL(Name) list[current] = make##Name##Panel();
#include "core/FamilyList.h"
#undef POSENC_FAMILY_PANEL
#undef POSENC_FAMILY
        return list;
    }();
    const auto &panel = panels[std::size_t(family)];
    return panel ? &*panel : nullptr;
}

} // namespace posenc::FamilyPanels
