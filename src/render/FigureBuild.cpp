#include "FigureBuild.h"

#include "FigureFonts.h"
#include "PlotStyle.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Panels read as pictures (the learned figure's heatmaps): smaller, they show nothing.
constexpr int kMinPictureSide = 64;

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
    , m_plot(std::make_unique<QCustomPlot>())
    , m_layout(m_plot.get(), m_size.layout)
{
    m_figurePlot = m_figure.build(m_plot.get());
    m_figurePlot->setCompact(PlotStyle::isCompact(m_size.layout));
    m_figurePlot->showDefaultView(m_engine->params(), m_state);
    for (const ViewAxis &axis : m_figurePlot->viewAxes()) {
        if (const auto range = m_state.range(axis.key))
            axis.axis->setRange(range->lower, range->upper);
    }
    FigureFonts::scale(m_plot.get(), m_style.fontPointSize / FigureStyle::kBaseFontPointSize);
    for (QCPAxisRect *rect : m_plot->axisRects())
        rect->setMinimumSize(kMinAxisSide, kMinAxisSide);
    for (QCPAxisRect *rect : m_figurePlot->pictureRects())
        rect->setMinimumSize(kMinPictureSide, kMinPictureSide);
    m_layout.layOut();
    m_layout.computingFor();
}

FigureBuild::~FigureBuild() = default;

std::optional<FigureRequest> FigureBuild::request(int threads) const
{
    if (m_done)
        return std::nullopt;
    FigureRequest request;
    request.engine = m_engine;
    request.state = m_state;
    request.panels = m_figurePlot->panels(m_size.scale);
    request.detail = Detail::Full;
    request.threads = threads;
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
    m_figurePlot->fill(result.data, m_state);
    // QCustomPlot thins a graph to a few points per layout unit, which shows as steps when a
    // unit is several output pixels: a print draws every point.
    if (m_size.scale > 1.0) {
        for (int i = 0; i < m_plot->graphCount(); ++i)
            m_plot->graph(i)->setAdaptiveSampling(false);
    }
    if (m_style.title) {
        if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
            title->setText(*m_style.title);
    }
    // The next request, if any, is computed for the axes as this filling left them.
    if (m_layout.refitAfterFilling())
        m_layout.computingFor();
    else
        finish();
}

void FigureBuild::finish()
{
    m_done = true;
    // Squeezed past the least its text, legends and axes need, they would overlap or be cut.
    const QSize least = m_plot->plotLayout()->minimumOuterSizeHint();
    if (least.width() <= m_size.layout.width() && least.height() <= m_size.layout.height())
        return;
    const double cm = 2.54 / FigureSize::unitsPerInch();
    const QSize need = least.expandedTo(m_size.layout);
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
