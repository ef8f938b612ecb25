#pragma once

#include "FigureExportDialog.h"

#include <QString>

#include <array>

// The sizes the Export figure dialog offers, and its units.
namespace posenc::FigureExportPresets {

constexpr double kCmPerInch = 2.54;

struct PresetSize
{
    FigureExportDialog::Preset preset;
    QString key; // as Settings keeps it
    const char *label; // translated in the context "FigureExportDialog"
    double width; // cm, or pixels for the window
    double height;
    bool heightEditable;
    QString sizeName; // of FigureSizes::named(), as `posenc export --size` takes it; empty for none
};

// In the order of FigureExportDialog::Preset.
const std::array<PresetSize, 5> &all();
const PresetSize &of(FigureExportDialog::Preset preset);
// Inches per unit of a field; pixels are converted at `dpi`.
double inchesPer(FigureExportDialog::Unit unit, double dpi);

} // namespace posenc::FigureExportPresets
