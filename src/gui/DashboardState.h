#pragma once

#include <QJsonObject>

namespace posenc {

class Dashboard;

// The dashboard's part of a session's view state: how many views it shows and how ("layout",
// rows x columns), the figure each view shows with its state, and the maximised view.
//
//   {"layout": "1x2",
//    "views": [{"figure": "heatmap", "quantity": "input", "columns": [3.5, 20.5], ...}, ...],
//    "maximized": 0}
//
// Sessions saved before the dashboard had layouts showed four views: "views" without "layout"
// reads as "2x2". Sessions saved before views could show any figure kept {"heatmap": {...},
// "curves": {"columns": "0,1", ...}}; those are read into the views that show those figures.
namespace DashboardState {

QJsonObject save(const Dashboard &dashboard);
// Restores what is present and sound; anything else stays as it is, since a view state is a
// convenience, not a parameter.
void restore(Dashboard &dashboard, const QJsonObject &view);

} // namespace DashboardState

} // namespace posenc
