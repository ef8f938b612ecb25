// The figures of the program, one line each, in the order the window and --help list them:
// adding a figure is its descriptor, its builder, its tests and one line here
// (docs/ARCHITECTURE.md, "Adding a figure"). No include guard: FigureRegistry.cpp reads this
// list twice, with POSENC_FIGURE(Name) defined to declare and then to call make<Name>Figure().
POSENC_FIGURE(Heatmap)
POSENC_FIGURE(Curves)
POSENC_FIGURE(Magnitudes)
POSENC_FIGURE(Dropout)
POSENC_FIGURE(DropoutCompare)
POSENC_FIGURE(DropoutAnatomy)
POSENC_FIGURE(Learned)
POSENC_FIGURE(Similarity)
POSENC_FIGURE(Precision)
POSENC_FIGURE(ScaleCompare)
POSENC_FIGURE(ComposeCompare)
POSENC_FIGURE(RopeFrequencies)
POSENC_FIGURE(RopeScalings)
POSENC_FIGURE(RopeRotation)
POSENC_FIGURE(RopeScore)
POSENC_FIGURE(RopeInput)
POSENC_FIGURE(RopePrecision)
