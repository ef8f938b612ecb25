#pragma once

#include "check/TableCheck.h"
#include "core/Params.h"
#include "io/MatrixFile.h"
#include "render/data/Colormap.h"
#include "render/data/HeatmapResampler.h"

#include <QDialog>

#include <functional>
#include <memory>
#include <optional>
#include <variant>

class QCPGraph;
class QCPLegend;
class QCPRange;
class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace posenc {

struct HeatmapStyle;
struct PreparedCoverage;

class CheckReferenceRow;
class ComputeScheduler;
class HeatmapPanel;
class WorkProgress;

// File > Check a table… (docs/ARCHITECTURE.md, Checking a table): the verdict of `posenc check`
// on a table of positions, in the command line's words (CheckReport::tableLines), with
// |table − reference| as a heatmap and its maximum per column. The table is opened, identified
// and streamed on a worker (a ComputeScheduler job), which Cancel, closing the dialog or the
// window stop. The heatmap computes the block in view on its own worker: a preview of a row per
// pixel row at once, then, once the view rests, every cell of it, each pixel the largest |error|
// of the cells it covers; the button sets the window's parameters to the matched reference.
class TableCheckDialog : public QDialog
{
    Q_OBJECT

public:
    // Sets the window's parameters (one Undo step).
    using ApplyParams = std::function<void(const Params &)>;
    using CurrentParams = std::function<Params()>;

    // Starts checking `source` at once, within `memoryBudget` bytes (a .csv file is read whole).
    TableCheckDialog(const MatrixSource &source, std::uint64_t memoryBudget, CurrentParams current, ApplyParams apply,
                     QWidget *parent = nullptr);
    ~TableCheckDialog() override;

    bool isChecking() const { return m_checking; }
    // The verdict once the rows were streamed; unset while checking, or when the table could
    // not be checked (problem() says why).
    const std::optional<TableMatch> &match() const { return m_match; }
    const std::optional<TableCheck::Verification> &verification() const { return m_verification; }
    QString problem() const { return m_problem; }
    // Compare with: identified, the window's parameters, or a reference table; Check again.
    CheckReferenceRow *referenceRow() const { return m_referenceRow; }
    // The report as shown, a line each: what `posenc check` prints.
    QString reportText() const;
    // The headline: the verdict in a few words.
    QString headline() const;
    // The diagnosis under it, as the report's "diagnosis:" line words it.
    QString diagnosis() const;

    // The heatmap's grid as drawn last: each value the largest |table − reference| of the cells
    // its pixel covers in `block` (rows over positions, columns over columns, as evenly as
    // HeatmapResampler bins them: cell r of the block in grid row r * rows / block.rows); in a
    // preview, of the cells of one row of each pixel's rows (TableErrorGrid::preview).
    const HeatmapGrid &errorGrid() const { return m_grid; }
    bool errorGridIsPreview() const { return m_gridIsPreview; }
    // The block in view, which a zoom or a pan moves at once and the grid follows.
    const Block &viewBlock() const { return m_view; }
    // Writes the heatmap as it is shown to `path` (.png, .svg or .pdf, by its extension) and the
    // per-column plot beside it, its name ending "-columns" before the extension; whole or not
    // at all. The paths written, or why not.
    std::variant<QStringList, QString> savePlots(const QString &path);
    // Where savePlots writes the per-column plot: "check.png" gives "check-columns.png".
    static QString columnsPath(const QString &path);
    // The heatmap's view: rows and columns of the table, clamped to it. Computed on the worker.
    void showBlock(const Block &block);
    // The largest grid the heatmap computes (its plot's pixels by default).
    void setGridLimit(QSize cells) { m_gridLimit = cells; }
    // The heatmap's colour map: the one the user chose in the window's figures (WindowColormap), or
    // for auto (none), viridis, the sequential map of data of one sign. The grid on screen is
    // coloured again at once.
    void setColormap(std::optional<Colormap> chosen);
    Colormap colormap() const { return m_colormap; }

    // The computations of the check dialogs (a table's check and heatmap, a config's check), by
    // thread: tst_checkwindow checks that none runs on the GUI thread.
    struct Computations
    {
        int total = 0;
        int onApplicationThread = 0;
    };
    static Computations computations();
    // Counts a computation on the calling thread.
    static void noteComputation();

    QPushButton *referenceButton() const { return m_reference; }
    QCustomPlot *errorPlot() const { return m_errorPlot; }
    QCustomPlot *columnPlot() const { return m_columnPlot; }

signals:
    // The verdict, or why there is none, is shown.
    void checked();
    // The heatmap drew a new grid in full detail (errorGrid()).
    void errorGridChanged();
    // The heatmap drew the preview of a new view (errorGrid(), errorGridIsPreview()).
    void errorPreviewChanged();

protected:
    void closeEvent(QCloseEvent *event) override;
    void done(int result) override;

private:
    void fitToScreen();
    void start();
    void cancel();
    // Cancels and checks again against the reference the Compare with row declares.
    void checkAgain();
    void showProgress();
    void showResult(std::shared_ptr<const TableRows> table, TableMatch match, TableCheck::Verification verification);
    void showProblem(const QString &problem);
    void requestGrid();
    // `prepared`: the grid's map image and coverage made by the job (HeatmapPanel::prepareCoverage).
    void showGrid(HeatmapGrid grid, bool preview, std::shared_ptr<const PreparedCoverage> prepared);
    void showGridProblem(const QString &text);
    // Colours m_grid on the heatmap, without replotting.
    void drawGrid();
    // How the heatmap colours a grid: |error| on a logarithmic scale over errorRange().
    HeatmapStyle gridStyle() const;
    void viewChanged();
    void applyReference();
    // The colour range of |error|, fixed by the whole table's verdict: from a thousandth of the
    // tolerance at |reference| = 1 to the largest error (at least twice that tolerance).
    QCPRange errorRange() const;

    MatrixSource m_source;
    std::uint64_t m_budget;
    CurrentParams m_current;
    ApplyParams m_apply;

    QLabel *m_headline;
    QLabel *m_diagnosis;
    QProgressBar *m_progressBar;
    QPushButton *m_cancel;
    QPlainTextEdit *m_report;
    QCustomPlot *m_errorPlot;
    std::unique_ptr<HeatmapPanel> m_panel;
    QLabel *m_errorCaption;
    QWidget *m_plots = nullptr; // the heatmap, its caption and the per-column plot
    QCustomPlot *m_columnPlot;
    QPushButton *m_reference;
    QPushButton *m_resetView;
    QPushButton *m_save;
    CheckReferenceRow *m_referenceRow;
    QCPLegend *m_columnLegend = nullptr;
    QTimer *m_progressTimer;
    QTimer *m_viewTimer;
    // Says "Computing rows …" only when a view's grid is slow to come: a zoom's preview follows at
    // once, and its caption is the one update of the zoom.
    QTimer *m_computingTimer;
    QString m_computingCaption;

    bool m_checking = false;
    bool m_settingView = false;
    std::shared_ptr<WorkProgress> m_progress;
    std::shared_ptr<const TableRows> m_table;
    QString m_tableText;
    std::optional<TableMatch> m_match;
    std::optional<TableCheck::Verification> m_verification;
    QString m_problem;
    HeatmapGrid m_grid;
    bool m_gridIsPreview = false;
    Colormap m_colormap = Colormap::Viridis;
    Block m_view;
    QSize m_gridLimit;

    // Declared last, destroyed first: a job's results never reach a dialog half gone.
    std::unique_ptr<ComputeScheduler> m_checkJobs;
    std::unique_ptr<ComputeScheduler> m_gridJobs;
};

} // namespace posenc
