// The property-testing engine lives here (see issue 5).
public enum PropertyTestingModule {}
