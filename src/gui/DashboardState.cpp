#include "DashboardState.h"

#include "Dashboard.h"
#include "FigureView.h"

#include "render/FigureRegistry.h"
#include "render/data/ViewOptions.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc::DashboardState {

namespace {

const QString kViews = u"views"_s;
const QString kFigure = u"figure"_s;
const QString kMaximized = u"maximized"_s;
const QString kLayout = u"layout"_s;

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

QJsonObject save(const Dashboard &dashboard)
{
    QJsonArray views;
    for (const FigureView *view : dashboard.views()) {
        QJsonObject json = view->state().toJson();
        json.insert(kFigure, view->figure().name());
        views.append(json);
    }
    return {{kLayout, Dashboard::toString(dashboard.arrangement())},
            {kViews, views},
            {kMaximized, dashboard.views().indexOf(dashboard.maximized())}};
}

void restore(Dashboard &dashboard, const QJsonObject &view)
{
    const QList<FigureView *> &views = dashboard.views();
    if (const auto arrangement = Dashboard::arrangementFrom(view.value(kLayout).toString()))
        dashboard.setArrangement(*arrangement);
    else if (view.value(kViews).isArray() && !view.contains(kLayout))
        dashboard.setArrangement(Dashboard::Arrangement::Grid);
    if (view.value(kViews).isArray()) {
        const QJsonArray saved = view.value(kViews).toArray();
        for (qsizetype i = 0; i < std::min<qsizetype>(saved.size(), views.size()); ++i) {
            const QJsonObject json = saved[i].toObject();
            if (const FigureDescriptor *figure = FigureRegistry::find(json.value(kFigure).toString()))
                views[i]->setFigure(*figure, FigureState::fromJson(json));
        }
    } else {
        for (FigureView *v : views) {
            const QString name = v->figure().name();
            if (view.value(name).isObject())
                v->setState(legacyState(name, view.value(name).toObject()));
        }
    }
    const int maximized = view.value(kMaximized).toInt(-1);
    FigureView *wanted = maximized >= 0 && maximized < views.size() ? views[maximized] : nullptr;
    if (dashboard.maximized() != wanted)
        dashboard.toggleMaximized(wanted ? wanted : dashboard.maximized());
}

} // namespace posenc::DashboardState
