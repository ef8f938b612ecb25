#include "FigureBuild.h"

#include "MapOptions.h"

#include "FigureRoom.h"
#include "KeptPanels.h"
#include "PlotStyle.h"
#include "ShorterLabels.h"
#include "SqueezedLayout.h"
#include "StackedPanels.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Panels read as pictures (the learned figure's heatmaps): smaller, they show nothing.
constexpr int kMinPictureSide = 48;

// Rounded up to a tenth, so that the size a message names is enough (9.03 cm -> 9.1 cm).
double upToTenth(double value)
{
    return std::ceil(value * 10.0 - 1e-9) / 10.0;
}

} // namespace

std::optional<ParamError> FigureStyle::check() const
{
    if (fontPointSize >= kMinFontPointSize && fontPointSize <= kMaxFontPointSize)
        return std::nullopt;
    return ParamError {u"font-size"_s, u"a number of points in [4, 36]"_s, QString(), QString::number(fontPointSize)};
}

FigureBuild::FigureBuild(const FigureDescriptor &figure, std::shared_ptr<const Engine> engine, FigureState state,
                         FigureStyle style, FigureSize size)
    : m_figure(figure)
    , m_engine(std::move(engine))
    , m_state(std::move(state))
    , m_style(std::move(style))
    , m_size(size)
    , m_plot(std::make_unique<SqueezablePlot>())
    , m_layout(m_plot.get(), m_size.layout, m_style.fontPointSize)
{
    m_figurePlot = setUp(m_plot.get());
    m_layout.layOut();
    m_layout.computingFor();
}

FigureBuild::~FigureBuild() = default;

std::unique_ptr<FigurePlot> FigureBuild::setUp(QCustomPlot *plot) const
{
    auto figurePlot = m_figure.build(plot);
    if (m_size.stacked)
        StackedPanels::stack(plot);
    figurePlot->setCompact(PlotStyle::isCompact(m_size.layout));
    figurePlot->showDefaultView(m_engine->params(), m_state);
    KeptPanels::keep(plot, m_style.keptPanels);
    for (const ViewAxis &axis : figurePlot->viewAxes()) {
        if (const auto range = m_state.range(axis.key))
            axis.axis->setRange(range->lower, range->upper);
    }
    setLeastSizes(*plot, *figurePlot);
    return figurePlot;
}

std::optional<FigureRequest> FigureBuild::request(int threads)
{
    if (m_done)
        return std::nullopt;
    FigureRequest request;
    request.engine = m_engine;
    request.state = m_state;
    request.panels = m_figurePlot->panels(m_size.scale);
    request.detail = Detail::Full;
    request.threads = threads;
    if (!m_previewed) {
        m_previewed = true;
        if (m_figure.model().hasPreview(request))
            request.detail = Detail::Preview;
    }
    m_asked = request.detail;
    return request;
}

void FigureBuild::deliver(const FigureResult &result)
{
    if (m_done)
        return;
    if (!result.data) {
        m_error = FigureError {FigureError::OverBudget, result.refusal.value_or(QString())};
        m_done = true;
        return;
    }
    m_data = result.data;
    m_figurePlot->fill(result.data, m_state);
    KeptPanels::keep(m_plot.get(), m_style.keptPanels); // the filling may mark its panels anew
    MapOptions::apply(m_plot.get(), m_figure.model(), m_state);
    // QCustomPlot thins a graph to a few points per layout unit, which shows as steps when a
    // unit is several output pixels: a print draws every point.
    if (m_size.scale > 1.0) {
        for (int i = 0; i < m_plot->graphCount(); ++i)
            m_plot->graph(i)->setAdaptiveSampling(false);
    }
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0))) {
        if (m_style.title) {
            title->setText(*m_style.title);
        } else if (!m_style.saidAbove.isEmpty()) {
            title->setText(withoutSaid(title->text(), m_style.saidAbove));
            QStringList model = ShorterLabels::ofModelParts(title);
            model.removeIf([&](const QString &part) { return m_style.saidAbove.contains(part); });
            ShorterLabels::setModelParts(title, model);
        }
    }
    // The next request, if any, is computed for the axes as this filling left them: after a
    // preview, the full data whatever the axes did (a move counts as a refit, as in a view).
    if (m_layout.refitAfterFilling() || m_asked == Detail::Preview)
        m_layout.computingFor();
    else
        finish();
}

void FigureBuild::setLeastSizes(const QCustomPlot &plot, const FigurePlot &figurePlot)
{
    for (QCPAxisRect *rect : plot.axisRects())
        rect->setMinimumSize(kMinAxisSide, kMinAxisSide);
    for (QCPAxisRect *rect : figurePlot.pictureRects())
        rect->setMinimumSize(kMinPictureSide, kMinPictureSide);
}

QString FigureBuild::withoutSaid(const QString &title, const QStringList &said)
{
    const QString between = u"  ·  "_s;
    QStringList parts = title.split(between);
    // A part that is a said part, or one with its notes in brackets after it ("ModernBERT base
    // (answerdotai/ModernBERT-base)", a config's name and its source).
    const auto saidThere = [&said](const QString &part) {
        return std::any_of(said.begin(), said.end(), [&part](const QString &s) {
            return !s.isEmpty() && (part == s || part.startsWith(s + u" ("_s));
        });
    };
    for (qsizetype i = parts.size() - 1; i > 0; --i)
        if (saidThere(parts[i].trimmed()))
            parts.removeAt(i);
    return parts.join(between);
}

QList<QCPAxisRect *> FigureBuild::plotRects(const QCustomPlot &plot)
{
    QList<QCPAxisRect *> rects;
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (rect->realVisibility() && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            rects.append(rect);
    }
    return rects;
}

void FigureBuild::finish()
{
    m_done = true;
    // Fitted to its room, a figure of at least the least size (FigureSizes::least) takes no more
    // than its page: only a smaller one can be refused (a label longer than its axis is drawn).
    if (FigureRoom::leastWithin(*m_plot))
        return;
    const double cm = 2.54 / FigureSize::unitsPerInch();
    const QSize need = m_plot->plotLayout()->minimumOuterSizeHint().expandedTo(m_size.layout);
    m_error = FigureError {
        FigureError::TooSmall,
        u"the %1 figure's text at %2 pt needs at least %3 x %4 cm (%5 x %6 pixels on screen)"_s.arg(m_figure.name())
            .arg(m_style.fontPointSize)
            .arg(upToTenth(need.width() * cm), 0, 'f', 1)
            .arg(upToTenth(need.height() * cm), 0, 'f', 1)
            .arg(need.width())
            .arg(need.height())};
}

bool FigureBuild::run(int threads, const std::atomic<bool> *cancel)
{
    const std::atomic<bool> never {false};
    while (const auto next = request(threads)) {
        const FigureResult result = m_figure.model().compute(*next, cancel ? *cancel : never);
        if (result.isCancelled())
            return false;
        deliver(result);
    }
    return true;
}

} // namespace posenc
