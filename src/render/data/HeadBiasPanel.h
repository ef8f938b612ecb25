#pragma once

#include "render/data/FamilyPanel.h"

#include <cstdint>
#include <optional>

// What the families panels of the head-bias families share (ALiBi, Sandwich, KERPLE; their kit in
// core is HeadBias, docs/ARCHITECTURE.md, Kits for siblings): the panel's words from the family's
// short name, the check of head K against H, and the words of the value under the mouse.
namespace posenc::HeadBiasPanel {

// A panel drawn in `style`, headed "<name> bias", "<name>" where the room is short, and "<name>'s
// <noun>" in the figure's summary.
FamilyPanel named(const QString &name, const QString &noun, FamilyPanelStyle style);

// Why H heads and head K give no bias: H outside 1..maxHeads, or K outside 1..H.
std::optional<QString> headsProblem(std::int64_t heads, std::int64_t maxHeads, std::int64_t head);

// Head K's bias at offset k: "k = …: head K's bias", with its distance where the family names one,
// and no value but "−inf (masked)" where the bias is not finite.
FamilyPanelPoint point(double bias, std::int64_t offset, std::int64_t head,
                       std::optional<std::int64_t> distance = std::nullopt);

} // namespace posenc::HeadBiasPanel
