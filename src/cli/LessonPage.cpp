#include "LessonPage.h"

#include "core/ParamText.h"
#include "core/Quantity.h"
#include "core/rope/RopeText.h"
#include "io/LessonModels.h"
#include "render/DirectLabels.h"
#include "render/FigureBuild.h"
#include "render/FigureFile.h"
#include "render/FigurePage.h"
#include "render/FigureRegistry.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/KeptPanels.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/StackedPanels.h"
#include "render/data/FigureText.h"

#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::LessonPage {

namespace {

// Between the parts of a title or of the model's line.
const QString kBetween = u"  ·  "_s;

} // namespace

QList<const FigureDescriptor *> figures(const Lesson &lesson, const LessonModel &model, const Params &params,
                                        QTextStream &err, bool all, QSize page)
{
    QList<const FigureDescriptor *> named, kept;
    for (const QString &name : lesson.slideFigures(model, all))
        if (const FigureDescriptor *figure = FigureRegistry::find(name))
            named.append(figure);
    QStringList left;
    for (const FigureDescriptor *figure : std::as_const(named)) {
        if (figure->model().appliesTo(params))
            kept.append(figure);
        else
            left.append(figure->name());
    }
    if (!left.isEmpty() && !kept.isEmpty())
        err << "posenc export: all: " << left.join(u", "_s) << (left.size() == 1 ? " is" : " are")
            << " left out: drawn for other families than " << ParamText::toString(params.encoding) << '\n';
    QList<const FigureDescriptor *> chosen = kept.isEmpty() ? named : kept;
    if (!all && page.isValid() && page.width() < kOwnPageWidth && chosen.size() > 1)
        chosen = chosen.mid(0, 1);
    return chosen;
}

FigureState state(const Lesson &lesson, const QString &figure, const QString &modelConfig, const Params &params)
{
    const SessionView view = lesson.view(modelConfig);
    FigureState shown;
    if (const auto main = view.figure(lesson.mainView); main && main->name == figure) {
        shown = FigureState::fromJson(main->state);
    } else {
        for (const SessionView::Figure &each : view.views.value_or(QList<SessionView::Figure>())) {
            if (each.name == figure) {
                shown = FigureState::fromJson(each.state);
                break;
            }
        }
    }
    if (std::holds_alternative<Params>(lesson.params())
        && !(Quantities::shape(Quantity::Input, std::get<Params>(lesson.params()))
             == Quantities::shape(Quantity::Input, params)))
        shown.view.clear();
    return shown;
}

FigureStyle styleOf(const Lesson &lesson, const LessonModel &model, const FigureDescriptor &figure,
                    const FigureStyle &style)
{
    FigureStyle kept = style;
    kept.keptPanels = lesson.keptPanels(model, figure.name());
    return kept;
}

QString subtitle(const LessonModel &model, const QList<const FigureDescriptor *> &figures)
{
    if (model.name.isEmpty())
        return {};
    const Params &params = model.params;
    const bool scaled = params.encoding == Encoding::Rope && params.rope.type != RopeType::Default;
    QString line = scaled ? model.name + u"  ·  "_s + RopeText::scalingText(params) : model.name;
    const QString key = QString::fromUtf16(FigureText::kDropoutOwner);
    const bool statesP = params.training
        && std::any_of(figures.begin(), figures.end(),
                       [&key](const FigureDescriptor *figure) { return figure->model().option(key).has_value(); });
    if (FigureState owned; statesP && !LessonModels::dropoutOwner(model).isEmpty()) {
        owned.options.insert(key, LessonModels::dropoutOwner(model));
        line += u"  ·  "_s + FigureText::dropoutRateText(params, owned);
    }
    return line;
}

void markDropoutOwner(FigureState &state, const FigureDescriptor &figure, const LessonModel &model)
{
    const QString key = QString::fromUtf16(FigureText::kDropoutOwner);
    if (const QString owner = LessonModels::dropoutOwner(model); !owner.isEmpty() && figure.model().option(key))
        state.options.insert(key, owner);
}

namespace {

// The subtitle as the first part of a title: its parts after the first in brackets, so that a title
// shortened to its first parts keeps them with the name ("Qwen2.5 7B Instruct (yarn, factor 4, …)").
QString titleLead(const QString &subtitle)
{
    const QString name = subtitle.section(u"  ·  "_s, 0, 0);
    const QString rest = subtitle.section(u"  ·  "_s, 1);
    return rest.isEmpty() ? name : u"%1 (%2)"_s.arg(name, QString(rest).replace(u"  ·  "_s, u", "_s));
}

// The subtitle's line at the page's width (a plot of one text, as a figure's title is drawn, at the
// size of the figures' texts): its parts after the first dropped, then cut, where it is wider.
std::unique_ptr<QCustomPlot> subtitlePlot(const QString &text, int width, double points)
{
    auto plot = std::make_unique<QCustomPlot>();
    PlotStyle::preparePlot(plot.get());
    plot->plotLayout()->clear();
    QFont font = plot->font();
    font.setPointSizeF(points);
    const double room = width - 2.0 * QFontMetricsF(font).averageCharWidth();
    // Wider than the page, its parts after the first go one by one, the second first: the scaling
    // before whose p the figures show, which their titles no longer say (build()).
    QStringList parts = text.split(u"  ·  "_s);
    QString shown = text;
    while (MeasuredText::advance(font, shown) > room && parts.size() > 1) {
        parts.removeAt(1);
        shown = parts.join(u"  ·  "_s);
    }
    if (MeasuredText::advance(font, shown) > room)
        shown = QFontMetricsF(font).elidedText(shown, Qt::ElideRight, room);
    plot->plotLayout()->addElement(0, 0, new MeasuredTextElement(plot.get(), shown, font));
    return plot;
}

// The height the subtitle's line takes at the page's top: none without one.
int subtitleHeight(const Request &request)
{
    if (request.subtitle.isEmpty() || request.styles.isEmpty())
        return 0;
    const auto plot
        = subtitlePlot(request.subtitle, request.page.layout.width(), request.styles.constFirst().fontPointSize);
    return plot->plotLayout()->elementAt(0)->minimumOuterSizeHint().height();
}

// The figures built at the sizes asked, each figure at each size once: measured on its preview
// where it has one (which settles the layout its texts take, FigureBuild), its full data computed
// only for the grid drawn.
class Builds
{
public:
    Builds(const Request &request, const std::atomic<bool> *cancel)
        : m_request(request)
        , m_cancel(cancel)
    { }

    // Figure `i` at `cell`'s size, laid out on its preview (`full`: built whole); nothing when
    // cancelled.
    FigureBuild *at(int i, QRect cell, bool full)
    {
        const Key key {i, cell.width(), cell.height()};
        auto found = m_built.find(key);
        if (found == m_built.end()) {
            if (m_request.stage)
                m_request.stage(m_request.figures.size() == 1
                                    ? u"drawing the %1 figure"_s.arg(m_request.figures[i]->name())
                                    : u"drawing the %1 figure (%2 of %3)"_s.arg(m_request.figures[i]->name())
                                          .arg(i + 1)
                                          .arg(m_request.figures.size()));
            auto build = std::make_unique<FigureBuild>(*m_request.figures[i], m_request.engine, m_request.states[i],
                                                       m_request.styles[i], FigurePage::cellSize(m_request.page, cell));
            found = m_built.emplace(key, std::move(build)).first;
        }
        FigureBuild &build = *found->second;
        if (full)
            return build.run(m_request.threads, m_cancel) ? &build : nullptr;
        const std::atomic<bool> never {false};
        bool previewed = false;
        while (const auto next = build.request(m_request.threads)) {
            if (next->detail != Detail::Preview && previewed)
                break; // laid out for the full data: enough to count its panels
            previewed = next->detail == Detail::Preview;
            const FigureResult result = m_request.figures[i]->model().compute(*next, m_cancel ? *m_cancel : never);
            if (result.isCancelled())
                return nullptr;
            build.deliver(result);
        }
        return &build;
    }

    std::unique_ptr<FigureBuild> take(int i, QRect cell)
    {
        return std::move(m_built.at(Key {i, cell.width(), cell.height()}));
    }

private:
    using Key = std::tuple<int, int, int>; // the figure, its width and height
    const Request &m_request;
    const std::atomic<bool> *m_cancel;
    std::map<Key, std::unique_ptr<FigureBuild>> m_built;
};

// How a page on a layout shows its figures: the main figure's panels drawn and the shorter side of
// its smallest plot (rope-relative's circle beside its two tables is a sliver on half a slide),
// all figures' panels drawn, the panels the steps gave up for room (FigureRoom::panelsKept) and
// the shorter side of the smallest plot of any figure.
struct Drawn
{
    qsizetype mainPanels = 0;
    int mainSmallest = 0;
    qsizetype panels = 0;
    qsizetype leftOut = 0;
    int untitled = 0; // figures whose title the steps gave up
    int unfit = 0; // figures that do not fit their cells (StackedPanels::fitsPage)
    int smallest = 0;

    // The order of even grids: the main figure first.
    auto mainFirst() const { return std::tuple {mainPanels, mainSmallest, panels}; }
    // The order of uneven ones: the fewest panels left out, then titles, then the least squeezed figure.
    auto fewestLeftOut() const { return std::tuple {-leftOut, -untitled, smallest, mainPanels}; }
    // Whether it leaves out less than `other`: panels, else titles.
    bool leavesOutLess(const Drawn &other) const
    {
        return std::tuple {-leftOut, -untitled} > std::tuple {-other.leftOut, -other.untitled};
    }
};

// Whether the steps gave up the figure's title (FigureRoom: a page short of room); false for a
// figure that has none.
bool untitled(const QCustomPlot &plot)
{
    const auto *title = plot.plotLayout()->elementCount() > 0
        ? qobject_cast<const QCPTextElement *>(plot.plotLayout()->element(0, 0))
        : nullptr;
    return title && !FigureRoom::fullTitle(plot).isEmpty()
        && (FigureRoom::Changes::isHidden(title) || title->text().isEmpty());
}

// Whether the figure's drawn title holds `lead` whole (given up or shortened past it: false).
bool titleHolds(const QCustomPlot &plot, const QString &lead)
{
    const auto *title = plot.plotLayout()->elementCount() > 0
        ? qobject_cast<const QCPTextElement *>(plot.plotLayout()->element(0, 0))
        : nullptr;
    static const QRegularExpression space(u"\\s+"_s);
    return title && !FigureRoom::Changes::isHidden(title)
        && QString(title->text()).remove(space).startsWith(QString(lead).remove(space));
}

// The figures' cells, below the subtitle's line where the page has one.
QList<QRect> cellsOf(const Request &request, const Layout &layout)
{
    const int band = subtitleHeight(request);
    const QSize below(request.page.layout.width(), request.page.layout.height() - band);
    if (request.figures.size() == 1)
        return {QRect(QPoint(0, band), below)};
    QList<QRect> cells = FigurePage::cells(int(request.figures.size()), below, layout.shape, layout.lead);
    for (QRect &cell : cells)
        cell.translate(0, band);
    return cells;
}

// How the page on `layout` shows its figures; nothing when cancelled.
std::optional<Drawn> score(const Request &request, Builds &builds, const Layout &layout)
{
    const int count = int(request.figures.size());
    const QList<QRect> cells = cellsOf(request, layout);
    Drawn drawn;
    drawn.smallest = std::numeric_limits<int>::max();
    for (int i = 0; i < count; ++i) {
        const FigureBuild *build = builds.at(i, cells[i], false);
        if (!build)
            return std::nullopt;
        const QList<QCPAxisRect *> rects
            = build->error() ? QList<QCPAxisRect *>() : FigureBuild::plotRects(*build->plot());
        const qsizetype panels = build->error() ? -1 : rects.size();
        int smallest = rects.isEmpty() ? 0 : std::numeric_limits<int>::max();
        for (const QCPAxisRect *rect : rects)
            smallest = std::min({smallest, rect->width(), rect->height()});
        if (i == 0) {
            drawn.mainPanels = panels;
            drawn.mainSmallest = smallest;
        }
        drawn.panels += panels;
        drawn.smallest = std::min(drawn.smallest, smallest);
        const FigureSizes::PanelsOnPage onPage = StackedPanels::onPage(*build, request.styles[i].fontPointSize);
        drawn.leftOut += onPage.leftOut;
        drawn.untitled += !build->error() && untitled(*build->plot()) ? 1 : 0;
        drawn.unfit += onPage.fits ? 0 : 1;
    }
    return drawn;
}

// The layout whose score() is the highest: of the even grids, the usual one among equals; where
// that leaves panels or titles out, the grid and main figure's share (kLeads) that leave out
// fewer and draw as many of the main figure's panels, so that a main figure of many panels beside
// a figure of few (dropout-on-sum's ten heatmaps and its magnitudes view, on half a 14-pt slide
// each, drew seven) takes the room it draws them in. Nothing when cancelled.
std::optional<Layout> choose(const Request &request, Builds &builds)
{
    const int count = int(request.figures.size());
    const QSize usual = FigurePage::grid(count, request.page.layout);
    if (!request.chooseGrid || count == 1)
        return Layout {usual, 1.0};
    QList<QSize> shapes {usual};
    for (const QSize &shape : FigurePage::grids(count))
        if (shape != usual)
            shapes.append(shape);
    Layout best {usual, 1.0};
    std::optional<Drawn> most;
    for (const QSize &shape : std::as_const(shapes)) {
        const auto drawn = score(request, builds, {shape, 1.0});
        if (!drawn)
            return std::nullopt;
        if (!most || drawn->mainFirst() > most->mainFirst()) {
            most = drawn;
            best = {shape, 1.0};
        }
    }
    if (most->leftOut == 0 && most->untitled == 0)
        return best;
    std::optional<Drawn> fewest;
    Layout uneven;
    for (const double lead : kLeads) {
        for (const QSize &shape : std::as_const(shapes)) {
            const auto drawn = score(request, builds, {shape, lead});
            if (!drawn)
                return std::nullopt;
            // Never fewer of the main figure's panels than the even grid chosen draws.
            if (drawn->mainPanels >= most->mainPanels
                && (!fewest || drawn->fewestLeftOut() > fewest->fewestLeftOut())) {
                fewest = drawn;
                uneven = {shape, lead};
            }
        }
    }
    return fewest && fewest->leavesOutLess(*most) ? uneven : best;
}

} // namespace

namespace {

// The page on `layout`, its figures built whole.
std::optional<Page> assemble(const Request &request, Builds &builds, const Layout &layout)
{
    const int count = int(request.figures.size());
    Page page;
    page.size = request.page;
    page.shape = layout.shape;
    page.lead = layout.lead;
    page.cells = cellsOf(request, layout);
    if (const int band = subtitleHeight(request); band > 0) {
        page.subtitle
            = subtitlePlot(request.subtitle, request.page.layout.width(), request.styles.constFirst().fontPointSize);
        page.subtitleCell = QRect(0, 0, request.page.layout.width(), band);
    }
    for (int i = 0; i < count; ++i) {
        if (!builds.at(i, page.cells[i], true))
            return std::nullopt;
        page.builds.push_back(builds.take(i, page.cells[i]));
    }
    return page;
}

} // namespace

namespace {

// A page tried: its request, the figures built for it, its layout and what it leaves out.
struct Tried
{
    std::unique_ptr<Request> request;
    std::unique_ptr<Builds> builds;
    Layout layout;
    Drawn drawn;
};

// `request` laid out and scored; nothing when cancelled.
std::optional<Tried> tryPage(const Request &request, const std::atomic<bool> *cancel)
{
    Tried tried;
    tried.request = std::make_unique<Request>(request);
    tried.builds = std::make_unique<Builds>(*tried.request, cancel);
    const auto layout = choose(*tried.request, *tried.builds);
    const auto drawn = layout ? score(*tried.request, *tried.builds, *layout) : std::nullopt;
    if (!drawn)
        return std::nullopt;
    tried.layout = *layout;
    tried.drawn = *drawn;
    return tried;
}

// The page with the model named in the main figure's title, before the figure's own ("Llama 4
// Scout 17B-16E (llama3, …)  ·  Position ids"), where the figure has a title of its own that the
// request does not set; `named` says whether the title drawn holds the name and the figure's subject
// (its first part) whole. Nothing where the figure has no such title, or when cancelled (`cancelled`).
std::optional<Tried> namedInTitle(const Request &request, const Tried &bare, bool &named, bool &cancelled,
                                  const std::atomic<bool> *cancel)
{
    const int i = 0;
    named = false;
    if (bare.request->styles[i].title)
        return std::nullopt;
    // The figure's own title, as drawn whole with its data: a preview's says so.
    const FigureBuild *drawn = bare.builds->at(i, cellsOf(*bare.request, bare.layout)[i], true);
    if (!drawn) {
        cancelled = true;
        return std::nullopt;
    }
    // Less what the name's lead says in its brackets.
    const QString own
        = FigureBuild::withoutSaid(FigureRoom::fullTitle(*drawn->plot()), request.subtitle.split(kBetween));
    if (drawn->error() || own.isEmpty())
        return std::nullopt;
    Request led = *bare.request;
    led.styles[i].title = titleLead(request.subtitle) + u"  ·  "_s + own;
    auto tried = tryPage(led, cancel);
    const FigureBuild *ledDrawn
        = tried ? tried->builds->at(i, cellsOf(*tried->request, tried->layout)[i], false) : nullptr;
    if (!ledDrawn) {
        cancelled = true;
        return std::nullopt;
    }
    const QString subject = titleLead(request.subtitle) + u"  ·  "_s + own.section(u"  ·  "_s, 0, 0);
    named = !ledDrawn->error() && titleHolds(*ledDrawn->plot(), subject);
    return tried;
}

std::optional<Page> assemble(Tried &tried)
{
    return assemble(*tried.request, *tried.builds, tried.layout);
}

} // namespace

std::optional<Page> build(const Request &given, const std::atomic<bool> *cancel)
{
    // Whose p the dropout figures show is said once, by the model's line (subtitle()), or the main
    // figure's title where it names the model instead; not again in each figure's title.
    // Likewise the model's name and scaling: the line says them, the figures' titles not again
    // (rope-decay's slide for Qwen2.5 read "yarn, factor 4, original 32,768" in both; many-layers'
    // for ModernBERT named it in the line and the layer stack's title).
    Request request = given;
    if (!request.subtitle.isEmpty()) {
        for (FigureState &state : request.states)
            state.options.remove(QString::fromUtf16(FigureText::kDropoutOwner));
        for (FigureStyle &style : request.styles)
            style.saidAbove = request.subtitle.split(kBetween);
    }
    // A page that may grow (a paper's column) grows for the panels it would leave out, stacked.
    std::map<std::pair<int, bool>, Tried> heights;
    using Weighed = std::optional<FigureSizes::PanelsOnPage>;
    const auto grown = FigureSizes::grownForPanels(request.page, [&](const FigureSize &page) -> Weighed {
        if (FigureFile::sizeRefusal(page)) // too many pixels at its dpi: no taller
            return FigureSizes::PanelsOnPage {std::numeric_limits<int>::max(), false};
        Request taller = request;
        taller.page = page;
        auto tried = tryPage(taller, cancel);
        if (!tried)
            return std::nullopt;
        const int leftOut = int(std::min<qsizetype>(tried->drawn.leftOut, std::numeric_limits<int>::max()));
        const bool fit = tried->drawn.unfit == 0;
        heights.insert_or_assign({page.layout.height(), page.stacked}, std::move(*tried));
        return FigureSizes::PanelsOnPage {leftOut, fit};
    });
    if (!grown)
        return std::nullopt;
    request.page = *grown;
    auto lined = std::optional<Tried>(std::move(heights.at({grown->layout.height(), grown->stacked})));
    // The subtitle's line goes where the page holds it with as many panels and titles as without it:
    // what-dropout-does' slide for Llama 4 Scout gave up its keep mask and evaluation panels for it.
    // Where it does not, the model is named in the main figure's title, its first part, where that
    // leaves out no more than the page without it: why-sqrt-d's 14-pt slide for the fairseq preset,
    // and dropout-on-sum's for MAE, named no model.
    if (request.subtitle.isEmpty() || (lined->drawn.leftOut == 0 && lined->drawn.untitled == 0))
        return assemble(*lined);
    Request plain = request;
    plain.subtitle.clear();
    for (FigureStyle &style : plain.styles)
        style.saidAbove.clear();
    auto bare = tryPage(plain, cancel);
    if (!bare)
        return std::nullopt;
    if (!bare->drawn.leavesOutLess(lined->drawn))
        return assemble(*lined);
    // A page read for a named model names it, at a cost where it must: in the main figure's title
    // where that leaves out no more than the page without a name, else in the line or that title,
    // whichever leaves out less (left-padding's 16:9 slide for Llama 4 Scout, two figures of three
    // panels, named none).
    bool named = false, cancelled = false;
    auto led = namedInTitle(request, *bare, named, cancelled, cancel);
    if (cancelled)
        return std::nullopt;
    if (led && named && !bare->drawn.leavesOutLess(led->drawn))
        return assemble(*led);
    if (led && named && led->drawn.leavesOutLess(lined->drawn))
        return assemble(*led);
    return assemble(*lined);
}

QByteArray bytes(const Page &page, const FigureSize &size, FigureFormat format, const FigureStyle &style)
{
    QList<FigureExporter::Placed> placed;
    QStringList titles, descriptions;
    for (std::size_t i = 0; i < page.builds.size(); ++i) {
        placed.append({page.builds[i]->plot(), page.cells[qsizetype(i)]});
        titles.append(FigureFile::documentTitle(*page.builds[i], style));
        descriptions.append(FigureFile::documentDescription(*page.builds[i]));
    }
    if (page.subtitle)
        placed.append({page.subtitle.get(), page.subtitleCell});
    return FigureExporter::encodePage(placed, size, format, titles.join(u"; "_s), descriptions.join(u"\n\n"_s));
}

QStringList panelsLeftOut(const Page &page, const QList<const FigureDescriptor *> &figures)
{
    QStringList lines;
    for (qsizetype i = 0; i < figures.size() && std::size_t(i) < page.builds.size(); ++i) {
        const FigureRoom::PanelsKept kept = KeptPanels::leftOut(*page.builds[std::size_t(i)]->plot());
        if (kept.givenUp > 0)
            lines.append(u"%1: %2 of its %3 panels left out for room at this size and font size; a larger --size or "
                         "a smaller --font-size shows them all"_s.arg(figures[i]->name())
                             .arg(kept.givenUp)
                             .arg(kept.panels));
        // A key given up with no label on its curves leaves them unnamed: said, never silently.
        if (const QStringList unnamed = DirectLabels::unnamed(*page.builds[std::size_t(i)]->plot()); !unnamed.isEmpty())
            lines.append(u"%1: its key left out for room at this size and font size, %2 of its curves unnamed (%3); "
                         "a larger --size or a smaller --font-size names them"_s.arg(figures[i]->name())
                             .arg(unnamed.size())
                             .arg(unnamed.join(u"; "_s)));
    }
    return lines;
}

std::optional<Layout> layout(const Request &request, const std::atomic<bool> *cancel)
{
    Builds builds(request, cancel);
    return choose(request, builds);
}

} // namespace posenc::LessonPage
