#include "FigureExportPresets.h"

#include "render/FigureSize.h"

using namespace Qt::StringLiterals;

namespace posenc::FigureExportPresets {

const std::array<PresetSize, 5> &all()
{
    // The sizes of `posenc export --size slide|column|double` (FigureSizes::named()).
    const auto cm = [](int index) { return FigureSizes::named().at(index).cm; };
    const auto name = [](int index) { return FigureSizes::named().at(index).name; };
    static const std::array<PresetSize, 5> presets = {{
        {FigureExportDialog::Preset::Slide, u"slide"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Slide 16:9 (25.4 × 14.29 cm)"), cm(0).width(), cm(0).height(), false,
         name(0)},
        {FigureExportDialog::Preset::SingleColumn, u"single-column"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Single column (8.5 cm wide)"), cm(1).width(), cm(1).height(), true,
         name(1)},
        {FigureExportDialog::Preset::DoubleColumn, u"double-column"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Double column (17.5 cm wide)"), cm(2).width(), cm(2).height(), true,
         name(2)},
        {FigureExportDialog::Preset::Window,
         u"window"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Window size"),
         0.0,
         0.0,
         false,
         {}},
        {FigureExportDialog::Preset::Custom,
         u"custom"_s,
         QT_TRANSLATE_NOOP("FigureExportDialog", "Custom"),
         0.0,
         0.0,
         true,
         {}},
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
