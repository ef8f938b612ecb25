#include "DashboardState.h"

#include "Dashboard.h"
#include "FigureView.h"

#include "render/FigureRegistry.h"
#include "render/data/ViewOptions.h"

using namespace Qt::StringLiterals;

namespace posenc::DashboardState {

namespace {

// The state of a figure as sessions before figure descriptors kept it.
FigureState legacyState(const QString &figure, const QJsonObject &json)
{
    QJsonObject converted = json;
    // The curves kept their list of columns as "columns"; it is the option --dims now.
    if (figure == u"curves"_s && json.value(u"columns"_s).isString()) {
        converted.remove(u"columns"_s);
        if (const QString text = json.value(u"columns"_s).toString(); !text.isEmpty())
            converted.insert(QString::fromUtf16(ViewOptions::kDims), text);
    }
    return FigureState::fromJson(converted);
}

} // namespace

SessionView save(const Dashboard &dashboard)
{
    SessionView saved;
    saved.layout = Dashboard::toString(dashboard.arrangement());
    saved.views.emplace();
    for (const FigureView *view : dashboard.views())
        saved.views->append({view->figure().name(), view->state().toJson()});
    saved.maximized = static_cast<int>(dashboard.views().indexOf(dashboard.maximized()));
    return saved;
}

void restore(Dashboard &dashboard, const SessionView &view)
{
    const QList<FigureView *> &views = dashboard.views();
    if (const auto arrangement = Dashboard::arrangementFrom(view.layout.value_or(QString())))
        dashboard.setArrangement(*arrangement);
    else if (view.views && !view.layout)
        dashboard.setArrangement(Dashboard::Arrangement::Grid);
    if (view.views) {
        for (qsizetype i = 0; i < std::min<qsizetype>(view.views->size(), views.size()); ++i) {
            const SessionView::Figure &saved = view.views->at(i);
            if (const FigureDescriptor *figure = FigureRegistry::find(saved.name))
                views[i]->setFigure(*figure, FigureState::fromJson(saved.state));
        }
    } else {
        for (FigureView *v : views) {
            const QString name = v->figure().name();
            if (const auto saved = view.byFigure.constFind(name); saved != view.byFigure.cend())
                v->setState(legacyState(name, *saved));
        }
    }
    const int maximized = view.maximized;
    FigureView *wanted = maximized >= 0 && maximized < views.size() ? views[maximized] : nullptr;
    if (dashboard.maximized() != wanted)
        dashboard.toggleMaximized(wanted ? wanted : dashboard.maximized());
}

} // namespace posenc::DashboardState
