#include "FigureExportPresets.h"

using namespace Qt::StringLiterals;

namespace posenc::FigureExportPresets {

const std::array<PresetSize, 5> &all()
{
    // Slide: 10 x 5.625 in, the 16:9 slide of presentation programs (1920 x 1080 at 192 dpi).
    // Paper columns: the widths of common two-column journals, a 3:2-ish default height.
    static const std::array<PresetSize, 5> presets = {{
        {FigureExportDialog::Preset::Slide, u"slide"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Slide 16:9 (25.4 × 14.29 cm)"), 25.4, 14.2875, false},
        {FigureExportDialog::Preset::SingleColumn, u"single-column"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Single column (8.5 cm wide)"), 8.5, 6.0, true},
        {FigureExportDialog::Preset::DoubleColumn, u"double-column"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Double column (17.5 cm wide)"), 17.5, 9.0, true},
        {FigureExportDialog::Preset::Window, u"window"_s, QT_TRANSLATE_NOOP("FigureExportDialog", "Window size"), 0.0,
         0.0, false},
        {FigureExportDialog::Preset::Custom, u"custom"_s, QT_TRANSLATE_NOOP("FigureExportDialog", "Custom"), 0.0, 0.0,
         true},
    }};
    return presets;
}

const PresetSize &of(FigureExportDialog::Preset preset)
{
    return all()[static_cast<std::size_t>(preset)];
}

double inchesPer(FigureExportDialog::Unit unit, double dpi)
{
    switch (unit) {
    case FigureExportDialog::Unit::Cm:
        return 1.0 / kCmPerInch;
    case FigureExportDialog::Unit::In:
        return 1.0;
    case FigureExportDialog::Unit::Px:
        return 1.0 / dpi;
    }
    return 1.0;
}

} // namespace posenc::FigureExportPresets
