#pragma once

#include "io/SessionView.h"

namespace posenc {

class Dashboard;

// The dashboard's part of a session's view state (SessionView): how many views it shows and how,
// the figure each view shows with its state, and the maximised view.
//
// Sessions saved before the dashboard had layouts showed four views: "views" without "layout"
// reads as "2x2". Sessions saved before views could show any figure kept a state by figure; those
// are read into the views that show those figures.
namespace DashboardState {

SessionView save(const Dashboard &dashboard);
// Restores what is present and sound; anything else stays as it is, since a view state is a
// convenience, not a parameter.
void restore(Dashboard &dashboard, const SessionView &view);

} // namespace DashboardState

} // namespace posenc
