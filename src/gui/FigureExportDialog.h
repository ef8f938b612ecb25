#pragma once

#include "FigureExportJob.h"

#include "core/Engine.h"
#include "render/FigureExporter.h"

#include <QDialog>
#include <QPointer>

#include <memory>

class QSettings;
class QTimer;

namespace Ui {
class FigureExportDialog;
}

namespace posenc {

// A figure the dialog can write: what a view shows now, captured when the dialog opened.
struct FigureSource
{
    QString name; // "Heatmap"
    std::shared_ptr<const Engine> engine;
    const FigureDescriptor *figure = nullptr;
    FigureState state;
    QSize viewSize; // the plot's size on screen, for the "Window size" preset
};

// File > Export figure: a figure of the window at a size for a slide, a paper column or the
// window itself, written as PNG, SVG or PDF with the exporter of `posenc export`. A paper's
// column, its height as the preset gives it, grows down the page for the panels the figure would
// leave out, stacked, as `posenc export --size column` grows it (FigureSizes::grownForPanels): the
// dialog weighs the figure's page as its choices change (FigureExportJob without a path) and its
// height field and size line tell the height grown to; a height typed in is kept as given. Asks
// before overwriting; a figure whose text does not fit the size is refused here, with the
// least size it needs, and nothing is written. The figure is made off the GUI thread
// (FigureExportJob on the dialog's scheduler), with a progress dialog after 0.4 s that can
// cancel it.
class FigureExportDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Preset { Slide, SingleColumn, DoubleColumn, Window, Custom };
    enum class Unit { Cm, In, Px };

    // `current` is the figure chosen at first; `settings` (may be null) keeps the last
    // directory, format, preset and dpi.
    FigureExportDialog(QList<FigureSource> sources, int current, QSettings *settings, QWidget *parent = nullptr);
    ~FigureExportDialog() override;

    void setFigure(int index);
    void setFormat(FigureFormat format);
    FigureFormat format() const;
    void setPreset(Preset preset);
    Preset preset() const;
    // The width and height fields (they edit the preset's height, which then no longer grows, or
    // make a custom size).
    void setDimensions(double width, double height, Unit unit);
    void setDpi(int dpi);
    void setFontPointSize(double points);
    void setTitle(const QString &title);
    void setPath(const QString &path);
    QString path() const;

    // The page the figure is written on: as the fields give it, or grown for its panels once
    // weighed; a paper's column not yet weighed may grow (FigureSize::mostHeight).
    FigureSize figureSize() const;
    // Whether the page is being weighed for the figure's panels.
    bool isMeasuring() const;
    const FigureSource &source() const;
    FigureStyle figureStyle() const;
    // Why the last Save wrote nothing (empty when it did, or before any).
    QString message() const;

    // What Save does: asks before overwriting, then builds the figure off the GUI thread,
    // refuses it when it does not fit, writes it atomically; closes the dialog once the file is
    // written (saved()).
    void save();
    // A figure being made or written.
    bool isExporting() const;
    // Closes the dialog, stopping the figure it is making.
    void reject() override;

signals:
    void saved(const QString &path);

private:
    void presetChosen();
    void unitChosen();
    void formatChosen();
    void pathEdited();
    void browse();
    void fill(double width, double height, Unit unit);
    FigureSize askedSize() const;
    void choicesChanged();
    void measure();
    void measured(const FigureSize &size, int panels, int leftOut);
    void updatePixels();
    void showMessage(const QString &text);
    void exportTo(const QString &path, FigureFormat format);
    void exported(const QString &path, const std::optional<FigureError> &refused, bool encoded,
                  const std::optional<WriteError> &writeError);
    Unit unit() const;

    std::unique_ptr<Ui::FigureExportDialog> m_ui;
    QList<FigureSource> m_sources;
    QSettings *m_settings;
    Unit m_unit = Unit::Cm; // of the numbers in the width and height fields
    QString m_browsedPath; // chosen in a save dialog, which already asked before overwriting
    ComputeScheduler *m_scheduler;
    QPointer<FigureExportJob> m_job;
    // The page weighed for the figure's panels, and what it draws there; none while the choices
    // changed since.
    ComputeScheduler *m_measureScheduler;
    QPointer<FigureExportJob> m_measure;
    QTimer *m_measureTimer;
    std::optional<FigureSize> m_grown;
    int m_panels = 0, m_leftOut = 0;
    bool m_heightGiven = false; // a paper preset's height typed in: it does not grow
    bool m_filling = false; // the fields set by the dialog, not the user
};

} // namespace posenc
