// Domain generators and named properties live here (see issue 5).
public enum ReferencePropertiesModule {}
