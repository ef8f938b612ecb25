#include "TableCheckDialog.h"

#include "CheckReference.h"

#include "CheckMarks.h"
#include "ColumnMaxPlot.h"
#include "ComputeScheduler.h"
#include "FileDialogs.h"
#include "SteadyLabel.h"
#include "TableErrorGrid.h"
#include "WriteDialogs.h"

#include "check/CheckReport.h"
#include "check/VerdictNames.h"
#include "core/NumberText.h"
#include "core/WorkProgress.h"
#include "io/AtomicFile.h"
#include "io/TableFile.h"
#include "render/CoverageColorMap.h"
#include "render/FigureExporter.h"
#include "render/FigureSize.h"
#include "render/HeatmapPanel.h"
#include "render/PinnedFont.h"
#include "render/PlotStyle.h"
#include "render/SqueezedLayout.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::atomic<int> g_computations {0};
std::atomic<int> g_onApplicationThread {0};

// The grid drawn before the plot has a size (a dialog not yet shown).
constexpr QSize kDefaultGrid(512, 384);
// How long a view's grid may take before the caption says it is being computed.
constexpr int kComputingCaptionMs = 100;

} // namespace

TableCheckDialog::Computations TableCheckDialog::computations()
{
    return {g_computations.load(), g_onApplicationThread.load()};
}

void TableCheckDialog::noteComputation()
{
    g_computations.fetch_add(1);
    const QCoreApplication *app = QCoreApplication::instance();
    if (app && QThread::currentThread() == app->thread())
        g_onApplicationThread.fetch_add(1);
}

// 900 x 860 where the screen has room; within its free area otherwise, a frame's and a panel's
// height spared (1366 x 768): the buttons stay on the screen.
void TableCheckDialog::fitToScreen()
{
    const QRect room = screen() ? screen()->availableGeometry() : QRect(0, 0, 900, 860);
    resize(std::min(900, room.width() - 40), std::min(860, room.height() - 60));
}

TableCheckDialog::TableCheckDialog(const MatrixSource &source, std::uint64_t memoryBudget, CurrentParams current,
                                   ApplyParams apply, QWidget *parent)
    : QDialog(parent)
    , m_source(source)
    , m_budget(memoryBudget)
    , m_current(std::move(current))
    , m_apply(std::move(apply))
    , m_headline(new QLabel(this))
    , m_diagnosis(new QLabel(this))
    , m_progressBar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("C&ancel check"), this))
    , m_report(new QPlainTextEdit(this))
    , m_errorPlot(new SqueezablePlot)
    , m_errorCaption(new SteadyLabel(this))
    , m_columnPlot(new SqueezablePlot)
    , m_reference(new QPushButton(tr("Set parameters to the &reference"), this))
    , m_resetView(new QPushButton(tr("Show the &whole table"), this))
    , m_save(new QPushButton(tr("&Save plots…"), this))
    , m_referenceRow(new CheckReferenceRow(m_current, this))
    , m_progressTimer(new QTimer(this))
    , m_viewTimer(new QTimer(this))
    , m_computingTimer(new QTimer(this))
    , m_checkJobs(std::make_unique<ComputeScheduler>())
    , m_gridJobs(std::make_unique<ComputeScheduler>())
{
    setObjectName(u"tableCheckDialog"_s);
    setWindowTitle(tr("Check a table: %1").arg(source.toString()));
    setWindowFlag(Qt::Window);
    setSizeGripEnabled(true);

    m_headline->setObjectName(u"checkHeadline"_s);
    m_headline->setTextFormat(Qt::PlainText); // a file's name or a tensor's may hold markup
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setAccessibleName(tr("Verdict"));
    m_diagnosis->setObjectName(u"checkDiagnosis"_s);
    m_diagnosis->setTextFormat(Qt::PlainText);
    m_diagnosis->setWordWrap(true);
    m_diagnosis->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnosis->setAccessibleName(tr("Diagnosis"));
    m_diagnosis->hide();

    m_progressBar->setObjectName(u"checkProgress"_s);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setAccessibleName(tr("Rows compared"));
    m_progressBar->setFormat(tr("comparing rows: %p%"));
    m_cancel->setObjectName(u"cancelCheckButton"_s);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        cancel();
        showProblem(tr("The check was cancelled."));
    });

    m_report->setObjectName(u"checkReport"_s);
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setAccessibleName(tr("Check report"));
    m_report->setMinimumHeight(m_report->fontMetrics().lineSpacing() * 5);

    // |table − reference| over positions x columns, as the other heatmaps draw a table.
    m_errorPlot->setObjectName(u"errorHeatmap"_s);
    m_errorPlot->setAccessibleName(tr("Heatmap of |table − reference|"));
    PlotStyle::preparePlot(m_errorPlot);
    QCPTextElement *title = PlotStyle::resetWithTitle(m_errorPlot);
    title->setText(u"|table − reference|"_s);
    auto *cell = new QCPLayoutGrid;
    m_errorPlot->plotLayout()->addElement(1, 0, cell);
    m_panel = std::make_unique<HeatmapPanel>(m_errorPlot, cell, 0, 0);
    m_panel->colorScale()->setDataScaleType(QCPAxis::stLogarithmic);
    m_panel->colorMap()->setDataScaleType(QCPAxis::stLogarithmic);
    PlotStyle::setLogAxis(m_panel->colorScale()->axis());
    m_panel->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_panel->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    m_errorPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_errorPlot->setMinimumSize(360, 200);
    m_errorPlot->setFocusPolicy(Qt::StrongFocus);
    m_errorCaption->setObjectName(u"errorCaption"_s);
    m_errorCaption->setTextFormat(Qt::PlainText);

    // The largest |error| of each column over every position, from the stream of the whole table.
    m_columnPlot->setObjectName(u"columnMaxPlot"_s);
    m_columnPlot->setAccessibleName(tr("Plot of the largest |error| per column"));
    ColumnMaxPlot::prepare(m_columnPlot);
    m_columnPlot->setMinimumSize(360, 150);

    m_reference->setObjectName(u"setReferenceButton"_s);
    m_reference->setEnabled(false);
    m_reference->setToolTip(tr("Set the window's parameters to the reference the table matched (one Undo step)"));
    connect(m_reference, &QPushButton::clicked, this, &TableCheckDialog::applyReference);
    connect(m_referenceRow, &CheckReferenceRow::requested, this, &TableCheckDialog::checkAgain);
    m_resetView->setObjectName(u"wholeTableButton"_s);
    m_resetView->setEnabled(false);
    connect(m_resetView, &QPushButton::clicked, this, [this] {
        if (m_table)
            showBlock({0, m_table->rows(), 0, m_table->cols()});
    });
    m_save->setObjectName(u"savePlotsButton"_s);
    m_save->setEnabled(false);
    m_save->setToolTip(tr("Write the heatmap as shown and the per-column plot as PNG, SVG or PDF"));
    connect(m_save, &QPushButton::clicked, this, [this] {
        FileDialogs::askSave(
            this, tr("Save the plots"), QString(),
            tr("PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"), [this](const QString &path) {
                // The save dialog asked about `path`; the column plot's file beside it is asked here.
                WriteDialogs::confirmOverwrite(this, columnsPath(path), false, [this, path] {
                    const auto saved = savePlots(path);
                    if (const auto *why = std::get_if<QString>(&saved))
                        WriteDialogs::showRefusal(this, tr("Save the plots"), *why);
                    else
                        m_errorCaption->setText(tr("Saved %1").arg(std::get<QStringList>(saved).join(tr(" and "))));
                });
            });
    });
    auto *close = new QPushButton(tr("C&lose"), this);
    close->setObjectName(u"closeCheckButton"_s);
    connect(close, &QPushButton::clicked, this, &QDialog::close);

    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progressBar, 1);
    progressRow->addWidget(m_cancel);
    auto *plots = new QWidget;
    m_plots = plots;
    plots->hide(); // until there is a result to plot
    auto *plotsLayout = new QVBoxLayout(plots);
    plotsLayout->setContentsMargins(0, 0, 0, 0);
    plotsLayout->addWidget(m_errorPlot, 3);
    plotsLayout->addWidget(m_errorCaption);
    plotsLayout->addWidget(m_columnPlot, 2);
    plotsLayout->addStretch(0); // takes the room of hidden plots
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_report);
    splitter->addWidget(plots);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    splitter->setChildrenCollapsible(false);
    // The report's lines whole, the plots below.
    const int lines = m_report->fontMetrics().lineSpacing();
    splitter->setSizes({lines * 11, lines * 50});
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_reference);
    buttons->addWidget(m_resetView);
    buttons->addWidget(m_save);
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_diagnosis);
    layout->addWidget(m_referenceRow);
    layout->addLayout(progressRow);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);
    fitToScreen();

    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &TableCheckDialog::showProgress);
    // A zoom or a pan asks for the block in view once per turn of the event loop (both axes
    // move at once): its preview comes at once, the full grid once the wheel or the drag rests.
    m_viewTimer->setSingleShot(true);
    m_viewTimer->setInterval(0);
    connect(m_viewTimer, &QTimer::timeout, this, &TableCheckDialog::requestGrid);
    m_computingTimer->setSingleShot(true);
    m_computingTimer->setInterval(kComputingCaptionMs);
    connect(m_computingTimer, &QTimer::timeout, this, [this] { m_errorCaption->setText(m_computingCaption); });
    for (QCPAxis *axis : {m_panel->axisRect()->axis(QCPAxis::atBottom), m_panel->axisRect()->axis(QCPAxis::atLeft)})
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &TableCheckDialog::viewChanged);
    start();
}

TableCheckDialog::~TableCheckDialog()
{
    cancel();
    // The schedulers wait only for jobs told to stop: closing returns at once.
    m_gridJobs.reset();
    m_checkJobs.reset();
}

void TableCheckDialog::closeEvent(QCloseEvent *event)
{
    cancel();
    QDialog::closeEvent(event);
}

void TableCheckDialog::done(int result)
{
    cancel();
    QDialog::done(result);
}

void TableCheckDialog::checkAgain()
{
    cancel();
    start();
}

void TableCheckDialog::cancel()
{
    m_checkJobs->cancelAll();
    m_gridJobs->cancelAll();
    m_progressTimer->stop();
    m_checking = false;
}

QString TableCheckDialog::reportText() const
{
    return m_report->toPlainText();
}

QString TableCheckDialog::headline() const
{
    return m_headline->text();
}

QString TableCheckDialog::diagnosis() const
{
    return m_diagnosis->text();
}

void TableCheckDialog::start()
{
    m_checking = true;
    m_problem.clear();
    m_progressBar->show();
    m_cancel->show();
    m_progress = std::make_shared<WorkProgress>();
    m_headline->setText(tr("Checking %1 …").arg(m_source.toString()));
    m_report->setPlainText(tr("Reading the table and identifying it from a sample of its rows …"));
    m_progressBar->setValue(0);
    m_progressTimer->start();
    const MatrixSource source = m_source;
    const std::uint64_t budget = m_budget;
    const std::shared_ptr<WorkProgress> progress = m_progress;
    const DeclaredReference reference = m_referenceRow->reference();
    m_checkJobs->submit([this, source, budget, reference, progress](const std::atomic<bool> &cancel,
                                                                    const ComputeScheduler::Publish &publish) {
        noteComputation();
        auto outcome = CheckRun::run(source, budget, reference, cancel, progress.get());
        if (!outcome)
            return;
        if (auto *problem = std::get_if<QString>(&*outcome))
            return publish([this, text = std::move(*problem)] { showProblem(text); });
        publish([this, done = std::get<CheckRun::Outcome>(std::move(*outcome))]() mutable {
            showResult(done.table, std::move(done.match), std::move(done.verification));
        });
    });
}

void TableCheckDialog::showProgress()
{
    if (m_progress)
        m_progressBar->setValue(int(std::lround(m_progress->fraction() * 1000.0)));
}

void TableCheckDialog::showProblem(const QString &problem)
{
    m_checking = false;
    m_progressTimer->stop();
    m_progressBar->hide();
    m_cancel->hide();
    m_problem = problem;
    m_headline->setText(tr("Not checked"));
    m_report->setPlainText(problem);
    emit checked();
}

void TableCheckDialog::showResult(std::shared_ptr<const TableRows> table, TableMatch match,
                                  TableCheck::Verification verification)
{
    m_checking = false;
    m_progressTimer->stop();
    m_progressBar->hide();
    m_cancel->hide();
    m_table = std::move(table);
    m_match = std::move(match);
    m_verification = std::move(verification);

    const TableMatch &m = *m_match;
    // The verdict and what it is about in a line: the mistakes named, else the worst cell of a
    // mistake, else the reference a correct table matched.
    QString words = CheckWords::verdict(m.verdict);
    if (!m.mistakes.empty()) {
        words += (m.verdict == CheckVerdict::Mistake ? u": "_s : tr(": a guess: ")) + m.mistakes.join(u", "_s);
    } else if (m.verdict == CheckVerdict::Mistake && m.maxAbsError) {
        words += tr(": |error| up to %1 at row %2, column %3")
                     .arg(NumberText::compact(*m.maxAbsError, 3))
                     .arg(m.worstRow.value_or(-1))
                     .arg(m.worstColumn.value_or(-1));
    } else if (!m.referenceText.isEmpty()) {
        words += u" \u2014 "_s + m.referenceText;
    }
    m_headline->setText(u"%1 %2"_s.arg(CheckMarks::verdictSymbol(m.verdict), words));
    QPalette palette = m_headline->palette();
    palette.setColor(QPalette::WindowText, CheckMarks::verdictColour(m.verdict));
    m_headline->setPalette(palette);
    m_diagnosis->setText(m.diagnosis);
    m_diagnosis->show();
    m_report->setPlainText(CheckReport::tableLines(m, *m_table).join(u'\n'));

    m_reference->setEnabled(m.params.has_value());
    if (!m.params)
        m_reference->setToolTip(tr("The table matched no reference the window can show"));
    ColumnMaxPlot::draw(m_columnPlot, m_columnLegend, *m_verification, m, errorRange());
    if (m.reference) {
        m_plots->show();
        m_resetView->setEnabled(true);
        m_save->setEnabled(true);
        showBlock({0, m_table->rows(), 0, m_table->cols()});
    } else {
        // Nothing to compare with: the report alone, and the match's line that says why there are
        // no plots.
        m_errorCaption->setText(m.unreferenced);
        m_plots->show();
        m_errorPlot->hide();
        m_columnPlot->hide();
    }
    emit checked();
}

QCPRange TableCheckDialog::errorRange() const
{
    const double tolerance = m_match ? m_match->tolerance.relative + m_match->tolerance.absolute : 1e-6;
    const double floor = std::max(1e-12, tolerance * 1e-3);
    const double top
        = std::max({m_match && m_match->maxAbsError ? *m_match->maxAbsError : 0.0, 2.0 * tolerance, floor * 10.0});
    // A masked cell given a value is off by an infinity: the scale ends at float32's largest.
    if (!std::isfinite(top))
        return {floor, double(std::numeric_limits<float>::max())};
    return {floor, top};
}

void TableCheckDialog::showBlock(const Block &block)
{
    if (!m_table)
        return;
    const Block clamped = TableErrorGrid::clamped(block, m_table->rows(), m_table->cols());
    m_view = clamped;
    m_settingView = true;
    m_panel->showBlock(clamped);
    m_settingView = false;
    m_viewTimer->stop();
    requestGrid();
}

void TableCheckDialog::viewChanged()
{
    if (m_settingView || !m_table || !m_match || !m_match->reference)
        return;
    const QCPRange x = m_panel->axisRect()->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_panel->axisRect()->axis(QCPAxis::atLeft)->range();
    m_view = TableErrorGrid::cellsIn({x.lower, x.upper}, {y.lower, y.upper}, m_table->rows(), m_table->cols());
    // The grid drawn is replaced within a turn or two of the event loop: the replot of the move
    // stretches its last image rather than computing its coverage again.
    if (auto *map = dynamic_cast<CoverageColorMap *>(m_panel->colorMap()))
        map->setDataPending(true);
    m_viewTimer->start();
}

void TableCheckDialog::requestGrid()
{
    if (!m_table || !m_match || !m_match->reference)
        return;
    QSize limit = m_gridLimit;
    if (limit.isEmpty()) {
        const QSize pixels = m_panel->axisRect()->rect().size() * m_errorPlot->devicePixelRatioF();
        limit = pixels.width() > 16 && pixels.height() > 16 ? pixels : kDefaultGrid;
    }
    const Block block = m_view;
    const int rows = int(std::min<std::int64_t>(block.rows, limit.height()));
    const int cols = int(std::min<std::int64_t>(block.cols, limit.width()));
    m_computingCaption = tr("Computing rows %1–%2, columns %3–%4 …")
                             .arg(block.row0)
                             .arg(block.rowEnd() - 1)
                             .arg(block.col0)
                             .arg(block.colEnd() - 1);
    m_computingTimer->start();
    const std::shared_ptr<const TableRows> table = m_table;
    const TableMatch match = *m_match;
    // The map's image and coverage are made in the job too, for the panel as it is now: on the GUI
    // thread a zoom out to the whole table took 20 ms of it (a logarithm a cell).
    const HeatmapStyle style = gridStyle();
    const PanelExtent extent = m_panel->extent(m_errorPlot->devicePixelRatioF());
    m_gridJobs->submit([this, table, match, block, rows, cols, style,
                        extent](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        noteComputation();
        TableErrorGrid::inTurn(
            match, *table, block, QSize(cols, rows), cancel,
            [this, &publish, &cancel, &style, &extent](std::variant<HeatmapGrid, QString> grid, bool preview) {
                if (auto *message = std::get_if<QString>(&grid)) {
                    publish([this, text = *message] { showGridProblem(text); });
                    return;
                }
                if (cancel.load(std::memory_order_relaxed)) // a newer view's grid is asked for
                    return;
                auto made = std::get<HeatmapGrid>(std::move(grid));
                auto prepared = HeatmapPanel::prepareCoverage(TableErrorGrid::floored(made, style.dataRange.lower),
                                                              style, extent);
                publish([this, preview, grid = std::move(made), prepared = std::move(prepared)]() mutable {
                    showGrid(std::move(grid), preview, std::move(prepared));
                });
            });
    });
}

void TableCheckDialog::setColormap(std::optional<Colormap> chosen)
{
    // auto: the sequential map, as every figure's auto colours data of one sign.
    const Colormap map = chosen.value_or(Colormap::Viridis);
    if (map == m_colormap)
        return;
    m_colormap = map;
    if (m_grid.block.rows > 0) {
        drawGrid();
        m_errorPlot->replot();
    }
}

HeatmapStyle TableCheckDialog::gridStyle() const
{
    HeatmapStyle style;
    style.colormap = m_colormap;
    style.dataRange = errorRange();
    style.colorbarLabel = u"|table − reference|"_s;
    style.logarithmic = true;
    return style;
}

void TableCheckDialog::drawGrid()
{
    const HeatmapStyle style = gridStyle();
    m_settingView = true;
    m_panel->setGrid(TableErrorGrid::floored(m_grid, style.dataRange.lower), style);
    m_settingView = false;
}

void TableCheckDialog::showGridProblem(const QString &text)
{
    m_computingTimer->stop();
    m_errorCaption->setText(text);
    // No grid follows: the cells drawn are drawn exactly where the view holds them.
    if (auto *map = dynamic_cast<CoverageColorMap *>(m_panel->colorMap())) {
        map->setDataPending(false);
        m_errorPlot->replot();
    }
}

void TableCheckDialog::showGrid(HeatmapGrid grid, bool preview, std::shared_ptr<const PreparedCoverage> prepared)
{
    m_computingTimer->stop();
    m_grid = std::move(grid);
    m_gridIsPreview = preview;
    const QCPRange range = errorRange();
    drawGrid();
    m_panel->offerCoverage(std::move(prepared)); // taken only where made of these cells, colours and axes
    const Block &b = m_grid.block;
    const bool pooled = m_grid.rows < b.rows || m_grid.cols < b.cols;
    const QString pooling = preview ? tr("; a preview, each pixel the largest |error| of one row of its %1 x %2 "
                                         "cells, every cell follows")
                                    : tr("; each pixel the largest |error| of the %1 x %2 cells it covers");
    // The scale's top is the largest error only where that reaches twice the tolerance.
    const QString largest = NumberText::compact(m_match && m_match->maxAbsError ? *m_match->maxAbsError : 0.0, 3);
    const QString top = m_match && m_match->maxAbsError && *m_match->maxAbsError >= range.upper
        ? tr("the largest error (%1)").arg(largest)
        : tr("%1, above the largest error (%2)").arg(NumberText::compact(range.upper, 3), largest);
    m_errorCaption->setText(tr("Rows %1–%2, columns %3–%4 of %5 x %6%7. The colour scale runs from within a "
                               "thousandth of the tolerance to %8. Drag to pan, the wheel to zoom.")
                                .arg(b.row0)
                                .arg(b.rowEnd() - 1)
                                .arg(b.col0)
                                .arg(b.colEnd() - 1)
                                .arg(m_table->rows())
                                .arg(m_table->cols())
                                .arg(pooled ? pooling.arg(NumberText::compact(double(b.rows) / m_grid.rows, 3),
                                                          NumberText::compact(double(b.cols) / m_grid.cols, 3))
                                            : QString())
                                .arg(top));
    m_errorPlot->replot();
    if (preview)
        emit errorPreviewChanged();
    else
        emit errorGridChanged();
}

QString TableCheckDialog::columnsPath(const QString &path)
{
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + u"-columns."_s + info.suffix());
}

std::variant<QStringList, QString> TableCheckDialog::savePlots(const QString &path)
{
    const std::optional<FigureFormat> format = FigureExporter::formatOf(path);
    if (!format)
        return tr("%1: the format comes from the extension, %2").arg(path, FigureExporter::extensions());
    const QString columns = columnsPath(path);
    const QString title = tr("posenc check: %1").arg(m_source.toString());
    QStringList written;
    for (const auto &[plot, target] : {std::pair {m_errorPlot, path}, std::pair {m_columnPlot, columns}}) {
        const QByteArray bytes = FigureExporter::encode(plot, FigureSize::fromPixels(plot->size()), *format, title);
        if (const auto error
            = writeAtomically(target, [&bytes](QIODevice &device) { return device.write(bytes) == bytes.size(); }))
            return error->toString();
        written.append(target);
    }
    return written;
}

void TableCheckDialog::applyReference()
{
    if (!m_match || !m_match->params || !m_apply)
        return;
    const Params current = m_current ? m_current() : Params();
    m_apply(CheckReport::referenceParams(current, *m_match->params));
}

} // namespace posenc
