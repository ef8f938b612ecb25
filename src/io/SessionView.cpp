#include "SessionView.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QString kLayout = u"layout"_s;
const QString kViews = u"views"_s;
const QString kFigure = u"figure"_s;
const QString kMaximized = u"maximized"_s;

} // namespace

SessionView SessionView::read(const QJsonObject &view)
{
    SessionView read;
    if (view.contains(kLayout))
        read.layout = view.value(kLayout).toString();
    if (view.value(kViews).isArray()) {
        read.views.emplace();
        for (const QJsonValue &saved : view.value(kViews).toArray()) {
            QJsonObject state = saved.toObject();
            const QString name = state.take(kFigure).toString();
            read.views->append({name, state});
        }
    }
    read.maximized = view.value(kMaximized).toInt(-1);
    for (auto it = view.begin(); it != view.end(); ++it) {
        if (it->isObject())
            read.byFigure.insert(it.key(), it->toObject());
    }
    return read;
}

QJsonObject SessionView::write(QJsonObject view) const
{
    if (layout)
        view.insert(kLayout, *layout);
    if (views) {
        QJsonArray list;
        for (const Figure &figure : *views) {
            QJsonObject json = figure.state;
            json.insert(kFigure, figure.name);
            list.append(json);
        }
        view.insert(kViews, list);
    }
    view.insert(kMaximized, maximized);
    for (auto it = byFigure.cbegin(); it != byFigure.cend(); ++it)
        view.insert(it.key(), it.value());
    return view;
}

std::optional<SessionView::Figure> SessionView::figure(int index) const
{
    if (!views || index < 0 || index >= views->size())
        return std::nullopt;
    return views->at(index);
}

} // namespace posenc
